/** Tracker status: a green dot 'Tracker Active' or a red dot 'Paused'. */
export function StatusDot({ status, showLabel = true }: { status: 'running' | 'paused'; showLabel?: boolean }) {
  const running = status === 'running';
  const label = running ? 'Tracker Active' : 'Paused';
  return (
    <span className="inline-flex items-center gap-1.5 text-xs font-medium text-slate-600" title={label}>
      <span
        aria-hidden="true"
        className={`inline-block h-2.5 w-2.5 rounded-full ${running ? 'bg-green-500 ring-2 ring-green-100' : 'bg-red-500 ring-2 ring-red-100'}`}
      />
      {showLabel ? <span>{label}</span> : <span className="sr-only">{label}</span>}
    </span>
  );
}
