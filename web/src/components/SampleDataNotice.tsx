/** The permanent label of the demo tracker: its posts are generated, not collected. */
export function SampleDataNotice({ className = '' }: { className?: string }) {
  return (
    <div role="note" aria-label="Sample data" data-testid="sample-data-notice" className={`flex items-start gap-3 border-amber-200 bg-amber-50 px-6 py-2.5 text-sm text-amber-900 ${className}`}>
      <svg viewBox="0 0 20 20" className="mt-0.5 h-4 w-4 shrink-0 text-amber-600" fill="currentColor" aria-hidden="true">
        <path fillRule="evenodd" d="M18 10a8 8 0 1 1-16 0 8 8 0 0 1 16 0Zm-7-4a1 1 0 1 1-2 0 1 1 0 0 1 2 0ZM9 9a.75.75 0 0 0 0 1.5h.25v2.75a.75.75 0 0 0 1.5 0V10A1 1 0 0 0 9.75 9H9Z" clipRule="evenodd" />
      </svg>
      <p>
        <strong className="font-semibold">Sample data</strong> — this demo tracker is fed by Hark’s built-in generator, not by a real platform.
      </p>
    </div>
  );
}
