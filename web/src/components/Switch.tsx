// An on/off switch: a button with role="switch", so Space and Enter flip it and assistive tech
// reads its label, description and state.
import { useId, type ReactNode } from 'react';

export function Switch({
  checked,
  onChange,
  label,
  description,
  disabled = false,
  busy = false,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  label: string;
  /** Text under the label, tied to the switch with aria-describedby. */
  description?: ReactNode;
  disabled?: boolean;
  /** A change is being saved: announced, the switch stays usable. */
  busy?: boolean;
}) {
  const id = useId();
  const labelId = `${id}-label`;
  const descId = `${id}-desc`;
  return (
    <div className="flex items-start justify-between gap-4 py-2.5">
      <div className="min-w-0">
        <span id={labelId} className={`block text-sm font-medium ${disabled ? 'text-slate-400' : 'text-slate-800'}`}>
          {label}
        </span>
        {description ? (
          <span id={descId} className="mt-0.5 block text-xs text-slate-500">
            {description}
          </span>
        ) : null}
      </div>
      <button
        type="button"
        role="switch"
        aria-checked={checked}
        aria-labelledby={labelId}
        aria-describedby={description ? descId : undefined}
        aria-busy={busy || undefined}
        disabled={disabled}
        onClick={() => onChange(!checked)}
        className={`relative mt-0.5 inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-50 ${
          checked ? 'bg-brand-600' : 'bg-slate-300'
        }`}
      >
        <span
          aria-hidden="true"
          className={`inline-block h-5 w-5 rounded-full bg-white shadow transition-transform ${checked ? 'translate-x-5' : 'translate-x-0.5'}`}
        />
      </button>
    </div>
  );
}
