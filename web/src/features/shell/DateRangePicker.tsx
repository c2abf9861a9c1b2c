// Date range picker of the tracker header (dashboard-and-shell spec, section 5 "Date picker").
import * as Popover from '@radix-ui/react-popover';
import { lazy, Suspense, useMemo, useRef, useState } from 'react';
import type { DateRange } from 'react-day-picker';
import { startOfDay } from 'date-fns';
import { IconCalendar, IconChevronDown } from '../../components/icons';
import { Tooltip } from '../../components/Tooltip';
import {
  activeShortcut,
  allTimeQuery,
  formatRange,
  fromIsoDay,
  isDayDisabled,
  pickedToQuery,
  rangeEnd,
  SHORTCUTS,
  shortcutState,
  trackerStart,
  type Range,
  type TrackerTimes,
} from '../../state/date-range';
import type { DateSelection } from '../../state/query-state';

const DayPickerPanel = lazy(() => import('./DayPickerPanel'));

export function DateRangePicker({
  tracker,
  selection,
  range,
  now,
  disabled,
  onDays,
  onCustom,
}: {
  tracker: TrackerTimes;
  selection: DateSelection;
  range: Range | null;
  now: number;
  disabled: boolean;
  onDays: (days: number) => void;
  onCustom: (start: string, end: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const contentRef = useRef<HTMLDivElement>(null);
  const [draft, setDraft] = useState<DateRange | undefined>(undefined);
  const active = activeShortcut(selection, tracker, now);
  const label = formatRange(range);
  const narrow = typeof window !== 'undefined' && window.innerWidth < 760;

  const bounds = useMemo(
    () => ({ start: startOfDay(trackerStart(tracker)), end: startOfDay(rangeEnd(tracker, now)) }),
    [tracker, now],
  );

  function openChange(o: boolean) {
    setOpen(o);
    if (o) {
      setDraft(
        selection.kind === 'custom'
          ? { from: fromIsoDay(selection.start), to: fromIsoDay(selection.end) }
          : range
            ? { from: new Date(range.start), to: new Date(range.end) }
            : undefined,
      );
    }
  }

  function apply() {
    if (!draft?.from) return;
    const q = pickedToQuery(draft.from, draft.to ?? draft.from, tracker, now);
    onCustom(q.start, q.end);
    setOpen(false);
  }

  return (
    <Popover.Root open={open} onOpenChange={openChange}>
      <Popover.Trigger
        disabled={disabled}
        className="inline-flex h-9 items-center gap-2 rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-800 shadow-sm hover:border-slate-400 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:bg-slate-50 disabled:text-slate-500"
        aria-label={`Date range: ${active ? `${active.label}, ` : ''}${label}`}
        title={disabled ? 'The date range of this tracker is locked' : undefined}
      >
        <IconCalendar size={16} />
        {active ? <span className="font-medium text-slate-500">{active.label}:</span> : null}
        <span className={range ? '' : 'text-slate-400'}>{label}</span>
        <IconChevronDown size={14} />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          ref={contentRef}
          align="start"
          sideOffset={6}
          onOpenAutoFocus={(e) => {
            // Focus the active (or first available) shortcut rather than a disabled one's tooltip.
            e.preventDefault();
            const el = contentRef.current?.querySelector<HTMLButtonElement>('button[aria-pressed="true"]:not(:disabled)') ??
              contentRef.current?.querySelector<HTMLButtonElement>('ul button:not(:disabled)');
            el?.focus();
          }}
          className="z-50 flex max-w-[96vw] flex-col rounded-xl border border-slate-200 bg-white shadow-xl sm:flex-row"
        >
          <ul className="flex flex-row flex-wrap gap-1 border-b border-slate-200 p-2 sm:w-40 sm:flex-col sm:border-b-0 sm:border-r" aria-label="Date shortcuts">
            {SHORTCUTS.map((s) => {
              const st = shortcutState(tracker, s, now);
              const isActive = active?.label === s.label;
              const button = (
                <button
                  type="button"
                  disabled={st.disabled}
                  aria-pressed={isActive}
                  onClick={() => {
                    if (s.days === null) {
                      const q = allTimeQuery(tracker, now);
                      onCustom(q.start, q.end);
                    } else {
                      onDays(s.days);
                    }
                    setOpen(false);
                  }}
                  className={`w-full rounded-md px-3 py-1.5 text-left text-sm focus-visible:outline-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:text-slate-300 ${isActive ? 'bg-brand-50 font-semibold text-brand-700' : 'text-slate-700 hover:bg-slate-100'}`}
                >
                  {s.label}
                </button>
              );
              return (
                <li key={s.label}>
                  {st.tooltip ? (
                    <Tooltip content={st.tooltip} side="right">
                      {/* A disabled button gets no pointer events; the wrapper carries the tooltip. */}
                      <span tabIndex={0} className="block rounded-md focus-visible:outline-2 focus-visible:outline-brand-600" aria-label={`${s.label}: ${st.tooltip}`}>
                        {button}
                      </span>
                    </Tooltip>
                  ) : (
                    button
                  )}
                </li>
              );
            })}
          </ul>
          <div className="p-3">
            <Suspense fallback={<div className="flex h-72 w-72 items-center justify-center text-sm text-slate-500">Loading...</div>}>
              <DayPickerPanel
                selected={draft}
                onSelect={setDraft}
                isDisabled={(d) => isDayDisabled(d, tracker, now)}
                startMonth={bounds.start}
                endMonth={bounds.end}
                months={narrow ? 1 : 2}
              />
            </Suspense>
            <div className="mt-2 flex items-center justify-between gap-3 border-t border-slate-100 pt-3">
              <span className="text-xs text-slate-500">
                {draft?.from ? formatRange({ start: draft.from.getTime(), end: (draft.to ?? draft.from).getTime() }) : 'Pick a range'}
              </span>
              <div className="flex gap-2">
                <Popover.Close className="rounded-md px-3 py-1.5 text-sm text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600">
                  Cancel
                </Popover.Close>
                <button
                  type="button"
                  onClick={apply}
                  disabled={!draft?.from}
                  className="rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:opacity-50"
                >
                  Apply
                </button>
              </div>
            </div>
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
