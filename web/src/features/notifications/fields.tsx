// Inputs of the notification settings form: a list of addresses, a segmented choice, a select,
// a whole number, each labelled, described and showing its own error.
import { useId, type ReactNode } from 'react';
import { FieldMessage } from '../../components/Alert';
import type { FieldKey, NotificationForm } from './notification-form';

/** The form's values and how to change one, as every panel gets them. */
export interface FormBinding {
  form: NotificationForm;
  errors: Partial<Record<FieldKey, string>>;
  set: <K extends keyof NotificationForm>(key: K, value: NotificationForm[K]) => void;
  setThreshold: (key: keyof NotificationForm['thresholds'], value: string) => void;
}

/** The id of a field's input, so the first field in error can take the focus. */
export const fieldId = (key: FieldKey) => `notifications-${key}`;

const inputBase =
  'block w-full rounded-md border bg-white px-3 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:outline-none focus:ring-2 focus:ring-brand-500 disabled:bg-slate-50 disabled:text-slate-500';

export function RecipientsField({
  field,
  label,
  value,
  error,
  hint,
  onChange,
}: {
  field: FieldKey;
  label: string;
  value: string;
  error?: string;
  hint: string;
  onChange: (v: string) => void;
}) {
  const id = fieldId(field);
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <textarea
        id={id}
        rows={3}
        value={value}
        spellCheck={false}
        autoComplete="off"
        placeholder={'someone@example.org\nteam@example.org'}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint${error ? ` ${id}-msg` : ''}`}
        onChange={(e) => onChange(e.target.value)}
        className={`${inputBase} mt-1 py-2 ${error ? 'border-red-400' : 'border-slate-300'}`}
      />
      <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
        {hint}
      </p>
      <FieldMessage id={`${id}-msg`}>{error}</FieldMessage>
    </div>
  );
}

/** A few exclusive choices as a row of buttons (native radios: arrows move, Space picks). */
export function Segmented<T extends string>({
  legend,
  name,
  value,
  options,
  onChange,
  help,
}: {
  legend: string;
  name: string;
  value: T;
  options: { value: T; label: string }[];
  onChange: (v: T) => void;
  help?: ReactNode;
}) {
  const helpId = useId();
  return (
    <fieldset aria-describedby={help ? helpId : undefined}>
      <legend className="block text-sm font-medium text-slate-700">{legend}</legend>
      <div className="mt-1 inline-flex flex-wrap rounded-md border border-slate-300 bg-slate-50 p-0.5 shadow-sm">
        {options.map((o) => (
          <label
            key={o.value}
            className="relative cursor-pointer rounded px-3 py-1.5 text-sm font-medium text-slate-600 hover:text-slate-900 has-[:checked]:bg-white has-[:checked]:text-brand-700 has-[:checked]:shadow-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-1 has-[:focus-visible]:outline-brand-600"
          >
            <input
              type="radio"
              name={name}
              value={o.value}
              checked={value === o.value}
              onChange={() => onChange(o.value)}
              className="sr-only"
            />
            {o.label}
          </label>
        ))}
      </div>
      {help ? (
        <p id={helpId} className="mt-1 text-xs text-slate-500">
          {help}
        </p>
      ) : null}
    </fieldset>
  );
}

export function SelectField<T extends string>({
  label,
  value,
  options,
  onChange,
  hint,
  disabled,
}: {
  label: string;
  value: T;
  options: { value: T; label: string }[];
  onChange: (v: T) => void;
  hint?: string;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <select
        id={id}
        value={value}
        disabled={disabled}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={(e) => onChange(e.target.value as T)}
        className={`${inputBase} mt-1 h-9 border-slate-300 pr-8`}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** A whole number typed as text ("1,000" is taken); `label` may hold hidden words for screen readers. */
export function NumberField({
  field,
  label,
  value,
  error,
  hint,
  onChange,
  disabled,
  placeholder,
  className = '',
}: {
  field: FieldKey;
  label: ReactNode;
  value: string;
  error?: string;
  hint?: string;
  onChange: (v: string) => void;
  disabled?: boolean;
  placeholder?: string;
  className?: string;
}) {
  const id = fieldId(field);
  const described = [hint && !error ? `${id}-hint` : '', error ? `${id}-msg` : ''].filter(Boolean).join(' ');
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        value={value}
        disabled={disabled}
        placeholder={placeholder}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        onChange={(e) => onChange(e.target.value)}
        className={`${inputBase} mt-1 h-9 tabular-nums ${error ? 'border-red-400' : 'border-slate-300'}`}
      />
      {hint && !error ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      <FieldMessage id={`${id}-msg`}>{error}</FieldMessage>
    </div>
  );
}

/** A URL typed into the form, with its hint and error. */
export function UrlField({
  field,
  label,
  value,
  error,
  hint,
  placeholder,
  onChange,
}: {
  field: FieldKey;
  label: string;
  value: string;
  error?: string;
  hint: ReactNode;
  placeholder: string;
  onChange: (v: string) => void;
}) {
  const id = fieldId(field);
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        value={value}
        placeholder={placeholder}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint${error ? ` ${id}-msg` : ''}`}
        onChange={(e) => onChange(e.target.value)}
        className={`${inputBase} mt-1 h-9 ${error ? 'border-red-400' : 'border-slate-300'}`}
      />
      <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
        {hint}
      </p>
      <FieldMessage id={`${id}-msg`}>{error}</FieldMessage>
    </div>
  );
}

/** A checkbox with its label beside it. */
export function CheckField({ label, checked, onChange }: { label: ReactNode; checked: boolean; onChange: (v: boolean) => void }) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        className="h-4 w-4 rounded border-slate-300 text-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
      />
      <label htmlFor={id} className="text-sm text-slate-700">
        {label}
      </label>
    </div>
  );
}
