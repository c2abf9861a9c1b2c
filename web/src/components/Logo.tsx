/** The Hark word mark. */
export function Logo({ className = '' }: { className?: string }) {
  return (
    <span className={`inline-flex items-center gap-2 font-semibold tracking-tight text-slate-900 ${className}`}>
      <svg viewBox="0 0 24 24" className="h-6 w-6 text-brand-600" fill="none" aria-hidden="true">
        <path d="M4 12a8 8 0 0 1 16 0" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
        <path d="M8 12a4 4 0 0 1 8 0" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
        <circle cx="12" cy="15.5" r="2.5" fill="currentColor" />
      </svg>
      Hark
    </span>
  );
}

/** The app header's mark: an "H" tile and the name (tracker pages, the export window). */
export function HeaderMark() {
  return (
    <span className="flex items-center gap-2 font-bold text-slate-900">
      <span className="flex h-7 w-7 items-center justify-center rounded-md bg-brand-600 text-sm text-white" aria-hidden="true">
        H
      </span>
      Hark
    </span>
  );
}
