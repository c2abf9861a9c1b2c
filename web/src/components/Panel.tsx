// A titled card used for charts and page sections.
import type { ReactNode } from 'react';

export function Panel({
  title,
  actions,
  children,
  className = '',
  id,
}: {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  id?: string;
}) {
  const headingId = id ? `${id}-title` : undefined;
  return (
    <section className={`flex flex-col rounded-xl border border-slate-200 bg-white shadow-sm ${className}`} aria-labelledby={headingId} data-panel={id}>
      <div className="flex items-center justify-between gap-3 border-b border-slate-100 px-4 py-3">
        <h2 id={headingId} className="text-sm font-semibold text-slate-800">
          {title}
        </h2>
        {actions}
      </div>
      <div className="flex-1 px-4 py-2">{children}</div>
    </section>
  );
}

/** Bar of page controls under the tracker header. */
export function SubHeader({ children, label }: { children: ReactNode; label: string }) {
  return (
    <div role="toolbar" aria-label={label} className="flex flex-wrap items-center gap-3 border-b border-slate-200 bg-white px-6 py-3">
      {children}
    </div>
  );
}

export const controlClass =
  'inline-flex h-9 items-center gap-2 rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-700 shadow-sm hover:border-slate-400 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-50';
