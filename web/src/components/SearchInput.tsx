// Search box that reports its value after a short pause (and at once on Enter).
import { useEffect, useRef, useState } from 'react';
import { IconSearch, IconX } from './icons';

export function SearchInput({
  value,
  onChange,
  placeholder,
  disabled,
  width = 'w-72',
  clearLabel,
}: {
  value: string;
  onChange: (v: string) => void;
  placeholder: string;
  disabled?: boolean;
  width?: string;
  /** When set, a clear button with this accessible name is shown while there is text. */
  clearLabel?: string;
}) {
  const [text, setText] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => setText(value), [value]);
  useEffect(() => () => clearTimeout(timer.current), []);
  function change(v: string) {
    setText(v);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => onChange(v.trim()), 400);
  }
  return (
    <label className={`flex h-9 items-center gap-2 rounded-md border border-slate-300 bg-white px-3 shadow-sm focus-within:outline-2 focus-within:outline-offset-1 focus-within:outline-brand-600 ${disabled ? 'opacity-50' : ''} ${width} max-w-full`}>
      <IconSearch size={16} className="shrink-0 text-slate-400" />
      <input
        type="search"
        value={text}
        disabled={disabled}
        placeholder={placeholder}
        aria-label={placeholder}
        onChange={(e) => change(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            clearTimeout(timer.current);
            onChange(text.trim());
          }
        }}
        className="h-full min-w-0 flex-1 border-0 bg-transparent text-sm text-slate-800 outline-none placeholder:text-slate-400 disabled:cursor-not-allowed [&::-webkit-search-cancel-button]:hidden"
      />
      {clearLabel && text ? (
        <button
          type="button"
          aria-label={clearLabel}
          onClick={() => {
            clearTimeout(timer.current);
            setText('');
            onChange('');
          }}
          className="rounded text-slate-400 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          <IconX size={14} />
        </button>
      ) : null}
    </label>
  );
}
