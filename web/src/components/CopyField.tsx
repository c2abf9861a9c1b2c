// A read-only field holding text to pass on (a link) with a Copy button that says "Copied!" for
// two seconds. Without clipboard access the text is selected and copied the old way.
import { useEffect, useId, useRef, useState } from 'react';
import { IconCheck, IconCopy } from './icons';

export const COPY_FEEDBACK_MS = 2000;

export function CopyField({ label, value, id, hint }: { label: string; value: string; id?: string; hint?: string }) {
  const auto = useId();
  const inputId = id ?? auto;
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      input.current?.select();
      document.execCommand?.('copy');
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPY_FEEDBACK_MS);
  }

  return (
    <div>
      <label htmlFor={inputId} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          id={inputId}
          ref={input}
          readOnly
          value={value}
          aria-describedby={hint ? `${inputId}-hint` : undefined}
          onFocus={(e) => e.currentTarget.select()}
          className="h-10 min-w-0 flex-1 rounded-md border border-slate-300 bg-slate-50 px-3 text-sm text-slate-700 focus-visible:outline-2 focus-visible:outline-brand-600"
        />
        <button
          type="button"
          onClick={copy}
          data-active={copied || undefined}
          className={`inline-flex h-10 shrink-0 items-center gap-2 rounded-md px-4 text-sm font-medium text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${copied ? 'bg-green-600' : 'bg-brand-600 hover:bg-brand-700'}`}
        >
          {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
          {copied ? 'Copied!' : 'Copy'}
        </button>
      </div>
      {hint ? (
        <p id={`${inputId}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
