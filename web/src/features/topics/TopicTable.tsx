// One layer's topics as a table: the topic (a link one layer down, until the last layer), its
// posts and share, a sparkline over the range, the trend score with its direction and the share
// change, and a 'View posts' button. Posts and Trend sort through their headers (aria-sort).
import { SortButton } from '../../components/SortButton';
import type { MouseEvent } from 'react';
import type { TopicItem } from '../../api/queries/topics';
import { Tooltip } from '../../components/Tooltip';
import { formatMetric } from '../../lib/numbers';
import type { Sort } from '../../state/query-state';
import {
  ariaSort,
  formatChange,
  formatShare,
  formatTrend,
  itemTerm,
  sparkPaths,
  termLabel,
  TREND_HELP,
  trendDirection,
  trendLevel,
  trendWords,
  type TermRef,
  type TopicSortField,
} from './topics-data';

const TH = 'py-2.5 text-[11px] font-semibold text-slate-500';
const FIGURE = 'w-20 pl-2 pr-3 text-right';

export function InfoIcon({ size = 14 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" aria-hidden="true" focusable="false">
      <circle cx="12" cy="12" r="10" />
      <path d="M12 16v-4M12 8h.01" />
    </svg>
  );
}

function SortHeader({ field, label, sort, onSort }: { field: TopicSortField; label: string; sort: Sort; onSort?: (f: TopicSortField) => void }) {
  if (!onSort) return <span className="flex justify-end">{label}</span>;
  return <SortButton label={label} state={ariaSort(sort, field)} onClick={() => onSort(field)} />;
}

/** The trend column's header: sortable, with the score explained in a tooltip (focusable for keyboard users). */
function TrendHeader({ sort, onSort }: { sort: Sort; onSort?: (f: TopicSortField) => void }) {
  return (
    <span className="flex items-center justify-end gap-1">
      <Tooltip content={TREND_HELP}>
        <button type="button" className="rounded text-slate-400 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-brand-600" aria-label="What the trend score means">
          <InfoIcon size={13} />
        </button>
      </Tooltip>
      <span className="min-w-0">
        <SortHeader field="trend" label="Trend" sort={sort} onSort={onSort} />
      </span>
    </span>
  );
}

function Head({ sort, onSort }: { sort: Sort; onSort?: (f: TopicSortField) => void }) {
  return (
    <thead className="border-b border-slate-200 bg-slate-50">
      <tr>
        <th scope="col" className={`${TH} px-3 text-left`}>
          Topic
        </th>
        <th scope="col" aria-sort={ariaSort(sort, 'count')} className={`${TH} ${FIGURE}`}>
          <SortHeader field="count" label="Posts" sort={sort} onSort={onSort} />
        </th>
        <th scope="col" className={`${TH} ${FIGURE}`}>
          Share
        </th>
        <th scope="col" className={`${TH} hidden w-28 px-2 text-left sm:table-cell`}>
          Over time
        </th>
        <th scope="col" aria-sort={ariaSort(sort, 'trend')} className={`${TH} w-28 pl-2 pr-3 text-right`}>
          <TrendHeader sort={sort} onSort={onSort} />
        </th>
        <th scope="col" className={`${TH} w-28 px-3 text-right`}>
          <span className="sr-only">Actions</span>
        </th>
      </tr>
    </thead>
  );
}

export function Sparkline({ values, grouping }: { values: number[]; grouping: string }) {
  const w = 96;
  const h = 24;
  const { line, area } = sparkPaths(values, w, h);
  const peak = values.length ? Math.max(...values) : 0;
  return (
    <svg width={w} height={h} viewBox={`0 0 ${w} ${h}`} role="img" aria-label={`Posts by ${grouping}, at most ${peak}`} className="block overflow-visible">
      {area ? <path d={area} fill="var(--color-brand-100)" /> : null}
      {line ? <path d={line} fill="none" stroke="var(--color-brand-600)" strokeWidth={1.5} strokeLinejoin="round" strokeLinecap="round" /> : null}
    </svg>
  );
}

const TREND_TONE = {
  up: { very: 'bg-emerald-600 text-white', unusual: 'bg-emerald-100 text-emerald-800', usual: 'bg-slate-100 text-slate-600' },
  down: { very: 'bg-rose-600 text-white', unusual: 'bg-rose-100 text-rose-800', usual: 'bg-slate-100 text-slate-600' },
  flat: { very: 'bg-slate-100 text-slate-600', unusual: 'bg-slate-100 text-slate-600', usual: 'bg-slate-100 text-slate-600' },
};

export function TrendCell({ item }: { item: TopicItem }) {
  const dir = trendDirection(item.trend);
  const level = trendLevel(item.trend);
  const change = formatChange(item.change);
  const said = `${trendWords(item.trend)}: trend score ${formatTrend(item.trend)}; share of posts ${change === 'New' ? 'new' : change}`;
  return (
    <div className="flex flex-col items-end gap-0.5" title={said}>
      <span className="sr-only">{said}</span>
      <span aria-hidden="true" className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold tabular-nums ${TREND_TONE[dir][level]}`} data-testid="trend-score">
        {dir !== 'flat' ? <span className="text-[9px]">{dir === 'up' ? '▲' : '▼'}</span> : null}
        {formatTrend(item.trend)}
      </span>
      <span aria-hidden="true" className={`text-[11px] tabular-nums ${change === 'New' ? 'font-semibold text-brand-700' : 'text-slate-500'}`} data-testid="share-change">
        {change}
      </span>
    </div>
  );
}

function ChevronRight() {
  return (
    <svg width={14} height={14} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d="M9 18l6-6-6-6" />
    </svg>
  );
}

/** A plain left click is handled in the page; other clicks (new tab, copy link) keep the link's own behaviour. */
function plainClick(e: MouseEvent) {
  return e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey;
}

export function TopicTable({
  items,
  grouping,
  sort,
  onSort,
  drill,
  onPosts,
  caption,
}: {
  items: TopicItem[];
  grouping: string;
  sort: Sort;
  onSort: (field: TopicSortField) => void;
  /** The layer below each topic (its href and how to go there), or null in the last layer. */
  drill: { href: (t: TermRef) => string; go: (t: TermRef) => void } | null;
  onPosts: (t: TermRef) => void;
  caption: string;
}) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full table-fixed border-collapse text-left text-sm" data-testid="topics-table">
        <caption className="sr-only">{caption}</caption>
        <Head sort={sort} onSort={onSort} />
        <tbody>
          {items.map((item) => {
            const term = itemTerm(item);
            const label = termLabel(term);
            return (
              <tr key={`${item.kind}:${item.text}`} data-topic={label} className="group border-b border-slate-100 last:border-b-0 hover:bg-slate-50">
                <td className="px-3 py-2.5">
                  {drill ? (
                    <a
                      href={drill.href(term)}
                      onClick={(e) => {
                        if (!plainClick(e)) return;
                        e.preventDefault();
                        drill.go(term);
                      }}
                      className="inline-flex max-w-full items-center gap-1 rounded font-medium text-slate-900 hover:text-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
                      title={`Topics that appear with ${label}`}
                      data-testid="topic-link"
                    >
                      <span className="truncate">{label}</span>
                      <span className="shrink-0 text-slate-400 group-hover:text-brand-600">
                        <ChevronRight />
                      </span>
                    </a>
                  ) : (
                    <span className="block truncate font-medium text-slate-900" data-testid="topic-text">
                      {label}
                    </span>
                  )}
                </td>
                <td className={`${FIGURE} py-2.5 tabular-nums text-slate-800 ${sort.type === 'count' ? 'font-semibold' : ''}`} data-testid="topic-count">
                  {formatMetric(item.count)}
                </td>
                <td className={`${FIGURE} py-2.5 tabular-nums text-slate-600`} data-testid="topic-share">
                  {formatShare(item.share)}
                </td>
                <td className="hidden px-2 py-2.5 sm:table-cell">
                  <Sparkline values={item.spark} grouping={grouping} />
                </td>
                <td className="py-2 pl-2 pr-3">
                  <TrendCell item={item} />
                </td>
                <td className="px-3 py-2.5 text-right">
                  <button
                    type="button"
                    onClick={() => onPosts(term)}
                    aria-label={`View posts mentioning ${label}`}
                    className="whitespace-nowrap rounded-md px-2 py-1 text-xs font-medium text-brand-700 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-600"
                  >
                    View posts
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** Placeholder rows while the first page loads. */
export function TopicTableSkeleton({ sort, rows = 8 }: { sort: Sort; rows?: number }) {
  return (
    <div className="overflow-x-auto" aria-busy="true">
      <p role="status" className="sr-only">
        Loading topics…
      </p>
      <table className="w-full table-fixed border-collapse text-sm" aria-hidden="true">
        <Head sort={sort} />
        <tbody>
          {Array.from({ length: rows }, (_, i) => (
            <tr key={i} className="border-b border-slate-100 last:border-b-0" data-testid="skeleton-row">
              <td className="px-3 py-3">
                <div className="h-3 w-2/3 animate-pulse rounded bg-slate-200" />
              </td>
              <td className={`${FIGURE} py-3`}>
                <div className="ml-auto h-3 w-8 animate-pulse rounded bg-slate-100" />
              </td>
              <td className={`${FIGURE} py-3`}>
                <div className="ml-auto h-3 w-10 animate-pulse rounded bg-slate-100" />
              </td>
              <td className="hidden px-2 py-3 sm:table-cell">
                <div className="h-5 w-24 animate-pulse rounded bg-slate-100" />
              </td>
              <td className="py-3 pl-2 pr-3">
                <div className="ml-auto h-4 w-12 animate-pulse rounded-full bg-slate-100" />
              </td>
              <td className="px-3 py-3">
                <div className="ml-auto h-5 w-16 animate-pulse rounded bg-slate-100" />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
