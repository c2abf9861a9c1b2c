import { useId, type InputHTMLAttributes } from 'react';
import { FieldMessage } from './Alert';

export interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string;
  hint?: string;
}

/** A labelled input with an optional hint and error message. */
export function TextField({ label, error, hint, className = '', id, ...rest }: TextFieldProps) {
  const auto = useId();
  const inputId = id ?? auto;
  const msgId = `${inputId}-msg`;
  const hintId = `${inputId}-hint`;
  return (
    <div className={className}>
      <label htmlFor={inputId} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={[error ? msgId : '', hint ? hintId : ''].filter(Boolean).join(' ') || undefined}
        className={`mt-1 block h-9 w-full rounded-md border bg-white px-3 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:outline-none focus:ring-2 focus:ring-brand-500 disabled:bg-slate-50 disabled:text-slate-500 read-only:bg-slate-50 read-only:text-slate-600 ${error ? 'border-red-400' : 'border-slate-300'}`}
        {...rest}
      />
      {hint && !error && (
        <p id={hintId} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      )}
      <FieldMessage id={msgId}>{error}</FieldMessage>
    </div>
  );
}
