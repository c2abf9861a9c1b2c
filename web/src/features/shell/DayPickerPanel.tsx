// The calendar of the date range picker, loaded on first open to keep the initial bundle small.
import { DayPicker, type DateRange } from 'react-day-picker';
import 'react-day-picker/style.css';
import './day-picker.css';

export default function DayPickerPanel({
  selected,
  onSelect,
  isDisabled,
  startMonth,
  endMonth,
  months,
}: {
  selected: DateRange | undefined;
  onSelect: (r: DateRange | undefined) => void;
  isDisabled: (d: Date) => boolean;
  startMonth: Date;
  endMonth: Date;
  months: number;
}) {
  return (
    <DayPicker
      mode="range"
      selected={selected}
      onSelect={onSelect}
      disabled={isDisabled}
      startMonth={startMonth}
      endMonth={endMonth}
      defaultMonth={months > 1 && endMonth.getTime() > startMonth.getTime() ? new Date(endMonth.getFullYear(), endMonth.getMonth() - 1, 1) : endMonth}
      numberOfMonths={months}
      className="hark-rdp text-sm"
    />
  );
}
