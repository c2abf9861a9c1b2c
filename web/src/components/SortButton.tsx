// A table header that sorts its column: the label, the direction's arrow in the cell's padding,
// and the highlight of the active sort. The header cell carries aria-sort.
export type SortState = 'ascending' | 'descending' | 'none';

export function SortButton({
  label,
  state,
  onClick,
  align = 'right',
}: {
  label: string;
  state: SortState;
  onClick: () => void;
  align?: 'left' | 'right';
}) {
  const justify = align === 'right' ? 'justify-end text-right' : 'justify-start text-left';
  return (
    <button
      type="button"
      onClick={onClick}
      className={`flex w-full items-center rounded hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${justify} ${state !== 'none' ? 'text-brand-700' : ''}`}
    >
      <span className="relative">
        {label}
        {/* In the cell's padding, so the label keeps the column's whole width. */}
        {state !== 'none' ? (
          <span aria-hidden="true" className="absolute left-full top-1/2 ml-0.5 -translate-y-1/2 text-[8px]">
            {state === 'ascending' ? '▲' : '▼'}
          </span>
        ) : null}
      </span>
    </button>
  );
}
