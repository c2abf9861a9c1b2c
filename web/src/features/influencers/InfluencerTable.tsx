// The ranked accounts as a table: sortable column headers (aria-sort), focusable rows that
// open the account's side view on click or Enter, influencer tag chips and, for callers who
// may tag, each row's tag menu. Narrower than the wide layout, Avg. Engagement and Impressions
// give way and the tags go under the account; narrower still, the figures scroll sideways
// under the account column, which stays put.
import { SortButton } from '../../components/SortButton';
import { useLayoutEffect, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import type { InfluencerRow } from '../../api/queries/influencers';
import type { Tag } from '../../api/types';
import { IconCheck } from '../../components/icons';
import { platformInfo } from '../../lib/platforms';
import type { Sort } from '../../state/query-state';
import { platformCode } from '../posts/format';
import { TagChips } from '../posts/TagControls';
import {
  ariaSort,
  displayName,
  formatAverage,
  formatCount,
  formatEngagementRate,
  handle,
  safeHttpUrl,
  type InfluencerSortField,
} from './influencers-data';

interface Column {
  field: InfluencerSortField;
  label: string;
  value: (r: InfluencerRow) => string;
  /** Lesser columns give way on narrow screens. */
  minor?: boolean;
}

export const FIGURE_COLUMNS: Column[] = [
  { field: 'posts', label: 'Posts', value: (r) => formatCount(r.posts) },
  { field: 'engagement', label: 'Engagement', value: (r) => formatCount(r.engagement) },
  { field: 'avgEngagement', label: 'Avg. Engagement', value: (r) => formatAverage(r.avgEngagement), minor: true },
  { field: 'followers', label: 'Followers', value: (r) => formatCount(r.followers) },
  { field: 'reach', label: 'Reach', value: (r) => formatCount(r.reach) },
  { field: 'engagementRate', label: 'Eng. Rate', value: (r) => formatEngagementRate(r.engagementRate) },
  { field: 'impressions', label: 'Impressions', value: (r) => formatCount(r.impressions), minor: true },
];

/** Below this width (the table's box, not the window) the lesser columns give way and tags move under the account. */
export const WIDE_TABLE_MIN_PX = 1080;

const TH = 'py-2.5 text-[11px] font-semibold text-slate-500';
const FIGURE = 'w-24 pl-2 pr-3';
const STICKY = 'sticky left-0 z-10 shadow-[1px_0_0_0_var(--color-slate-200)]';

/** Whether the box is narrower than the wide layout needs (a box not measured yet counts as wide). */
function useCompact() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.getBoundingClientRect().width);
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver((entries) => setWidth(entries[0].contentRect.width));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return { ref, compact: width > 0 && width < WIDE_TABLE_MIN_PX };
}

export function PlatformBadge({ platform }: { platform: string }) {
  const info = platformInfo(platformCode(platform));
  return (
    <span className={`inline-flex h-5 min-w-5 shrink-0 items-center justify-center rounded px-1 text-[10px] font-bold ${info.badge}`} title={info.label}>
      {info.short}
      <span className="sr-only"> ({info.label})</span>
    </span>
  );
}

export function AccountAvatar({ row, size = 'h-10 w-10' }: { row: InfluencerRow; size?: string }) {
  const [broken, setBroken] = useState(false);
  const src = row.anonymized ? null : safeHttpUrl(row.avatarUrl);
  if (!src || broken) {
    return (
      <span className={`${size} flex shrink-0 items-center justify-center rounded-full bg-slate-200 text-sm font-semibold text-slate-600`} aria-hidden="true">
        {displayName(row).slice(0, 1).toUpperCase()}
      </span>
    );
  }
  return <img src={src} alt="" loading="lazy" className={`${size} shrink-0 rounded-full bg-slate-100 object-cover`} onError={() => setBroken(true)} />;
}

export function Verified() {
  return (
    <span className="inline-flex h-4 w-4 shrink-0 items-center justify-center rounded-full bg-brand-600 text-white" title="Verified account">
      <IconCheck size={10} strokeWidth={3} />
      <span className="sr-only">Verified</span>
    </span>
  );
}

function SortHeader({ field, label, sort, onSort, align = 'right' }: { field: InfluencerSortField; label: string; sort: Sort; onSort?: (f: InfluencerSortField) => void; align?: 'left' | 'right' }) {
  if (!onSort) return <span className={`flex ${align === 'right' ? 'justify-end text-right' : 'justify-start text-left'}`}>{label}</span>;
  return <SortButton label={label} state={ariaSort(sort, field)} onClick={() => onSort(field)} align={align} />;
}

function Head({ sort, onSort, columns, tagColumn }: { sort: Sort; onSort?: (f: InfluencerSortField) => void; columns: Column[]; tagColumn: boolean }) {
  return (
    <thead className="border-b border-slate-200 bg-slate-50">
      <tr>
        <th scope="col" aria-sort={ariaSort(sort, 'name')} className={`${TH} ${STICKY} bg-slate-50 px-3 text-left`}>
          <SortHeader field="name" label="Name" sort={sort} onSort={onSort} align="left" />
        </th>
        {columns.map((c) => (
          <th key={c.field} scope="col" aria-sort={ariaSort(sort, c.field)} className={`${TH} ${FIGURE} text-right`}>
            <SortHeader field={c.field} label={c.label} sort={sort} onSort={onSort} />
          </th>
        ))}
        {tagColumn ? (
          <th scope="col" className={`${TH} w-36 px-3 text-left`}>
            Tags
          </th>
        ) : null}
      </tr>
    </thead>
  );
}

const shownColumns = (compact: boolean) => FIGURE_COLUMNS.filter((c) => !compact || !c.minor);

/**
 * Whether a click opens the row: not in the tag cell (menu, chips), and not in something the
 * row renders elsewhere (the tag menu's popover and modals are portals, whose React events still
 * bubble through the row).
 */
function opensRow(e: MouseEvent<HTMLElement>): boolean {
  const target = e.target as HTMLElement;
  return e.currentTarget.contains(target) && !target.closest?.('[data-tag-cell]');
}

export function InfluencerTable({
  rows,
  sort,
  onSort,
  onOpen,
  allTags,
  showTags,
  tagMenu,
  tagsOf,
}: {
  rows: InfluencerRow[];
  sort: Sort;
  onSort: (field: InfluencerSortField) => void;
  onOpen: (row: InfluencerRow) => void;
  /** The caller's influencer tags (for the chips). */
  allTags: Tag[];
  showTags: boolean;
  /** The row's tag menu, for callers who may tag; null otherwise. */
  tagMenu: ((row: InfluencerRow) => ReactNode) | null;
  tagsOf: (row: InfluencerRow) => number[];
}) {
  const { ref, compact } = useCompact();
  const columns = shownColumns(compact);
  const tags = (r: InfluencerRow) => (
    <div className="flex flex-wrap items-start gap-1.5" data-tag-cell>
      <TagChips tags={tagsOf(r)} all={allTags} />
      {tagMenu ? tagMenu(r) : null}
    </div>
  );
  return (
    <div ref={ref} className="overflow-x-auto" data-layout={compact ? 'compact' : 'wide'}>
      <table className={`w-full table-fixed border-collapse text-left text-sm ${compact ? 'min-w-[46rem]' : ''}`} data-testid="influencers-table">
        <caption className="sr-only">Accounts ranked by the chosen column. Press Enter on a row to see the account's posts.</caption>
        <Head sort={sort} onSort={onSort} columns={columns} tagColumn={showTags && !compact} />
        <tbody>
          {rows.map((r) => (
            <tr
              key={r.key}
              data-account={r.key}
              tabIndex={0}
              aria-label={`${displayName(r)}${handle(r) ? ` ${handle(r)}` : ''}`}
              onClick={(e) => opensRow(e) && onOpen(r)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && e.target === e.currentTarget) {
                  e.preventDefault();
                  onOpen(r);
                }
              }}
              className="group cursor-pointer border-b border-slate-100 align-top last:border-b-0 hover:bg-slate-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600"
            >
              <td className={`${STICKY} bg-white px-3 py-3 group-hover:bg-slate-50`}>
                <AccountCell row={r} />
                {showTags && compact ? <div className="mt-2 pl-[3.25rem]">{tags(r)}</div> : null}
              </td>
              {columns.map((c) => (
                <td key={c.field} className={`${FIGURE} py-3 text-right tabular-nums text-slate-800 ${sort.type === c.field ? 'font-semibold' : ''}`}>
                  {c.value(r)}
                </td>
              ))}
              {showTags && !compact ? <td className="cursor-default px-3 py-3">{tags(r)}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function AccountCell({ row }: { row: InfluencerRow }) {
  const h = handle(row);
  return (
    <div className="flex min-w-0 gap-3">
      <AccountAvatar row={row} />
      <div className="min-w-0 flex-1">
        <div className="flex min-w-0 items-center gap-1.5">
          <span className="truncate font-semibold text-slate-900" data-testid="account-name">
            {displayName(row)}
          </span>
          {row.verified ? <Verified /> : null}
        </div>
        <div className="flex min-w-0 items-center gap-1.5 text-xs text-slate-500">
          <PlatformBadge platform={row.platform} />
          {h ? <span className="truncate">{h}</span> : null}
        </div>
        {row.bio && !row.anonymized ? <p className="mt-1 line-clamp-2 break-words text-xs text-slate-600">{row.bio}</p> : null}
        {row.location && !row.anonymized ? <p className="mt-0.5 truncate text-xs text-slate-500">{row.location}</p> : null}
      </div>
    </div>
  );
}

/** Placeholder rows while the first page loads. */
export function InfluencerTableSkeleton({ sort, rows = 8, showTags }: { sort: Sort; rows?: number; showTags: boolean }) {
  const { ref, compact } = useCompact();
  const columns = shownColumns(compact);
  return (
    <div ref={ref} className="overflow-x-auto" aria-busy="true">
      <p role="status" className="sr-only">
        Loading accounts…
      </p>
      <table className={`w-full table-fixed border-collapse text-sm ${compact ? 'min-w-[46rem]' : ''}`} aria-hidden="true">
        <Head sort={sort} columns={columns} tagColumn={showTags && !compact} />
        <tbody>
          {Array.from({ length: rows }, (_, i) => (
            <tr key={i} className="border-b border-slate-100 last:border-b-0" data-testid="skeleton-row">
              <td className={`${STICKY} bg-white px-3 py-3`}>
                <div className="flex gap-3">
                  <div className="h-10 w-10 shrink-0 animate-pulse rounded-full bg-slate-200" />
                  <div className="flex-1 space-y-2 pt-1">
                    <div className="h-3 w-2/3 animate-pulse rounded bg-slate-200" />
                    <div className="h-2.5 w-1/3 animate-pulse rounded bg-slate-100" />
                  </div>
                </div>
              </td>
              {columns.map((c) => (
                <td key={c.field} className={`${FIGURE} py-3`}>
                  <div className="ml-auto h-3 w-12 animate-pulse rounded bg-slate-100" />
                </td>
              ))}
              {showTags && !compact ? (
                <td className="px-3 py-3">
                  <div className="h-5 w-16 animate-pulse rounded bg-slate-100" />
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
