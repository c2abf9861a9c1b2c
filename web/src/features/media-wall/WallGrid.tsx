// The wall as a grid: as many columns of at least 240 px as the width holds, and in the page only
// the rows near the screen (a wall holds up to 500 posts; mounting every card costs the frames of
// each refresh and about 44 DOM nodes a card). The rows are one CSS grid, so the cards stay one
// list in reading and tab order: spacers above and below stand for the rows left out, measured as
// they were shown. The card that has the focus stays in the page while its row is off screen.
// What is selected lives in the page, not in the cards, so a selection holds posts scrolled away.
import { memo, useCallback, useDeferredValue, useLayoutEffect, useMemo, useRef, useState, type FocusEvent } from 'react';
import {
  defaultRangeExtractor,
  elementScroll,
  observeElementOffset,
  observeElementRect,
  observeWindowOffset,
  observeWindowRect,
  useVirtualizer,
  windowScroll,
  type Range,
  type Virtualizer,
  type VirtualizerOptions,
} from '@tanstack/react-virtual';
import type { WallPost } from '../../api/queries/media-wall';
import { WallPostCard, type WallTheme } from './WallPostCard';

/** The grid's column minimum and gap (px), as `minmax(240px, 1fr)` and `gap-4` would give. */
export const COLUMN_MIN = 240;
export const GAP = 16;
/** Rows mounted beyond each edge of the screen. */
export const OVERSCAN_ROWS = 2;

/** Columns of at least 240 px, 16 px apart, in `width` (one at least), as CSS `auto-fill` counts them. */
export function columnCount(width: number): number {
  if (!(width > 0)) return 1;
  return Math.max(1, Math.floor((width + GAP) / (COLUMN_MIN + GAP)));
}

/** A row's height before it is measured: the square picture, the text block and the controls. */
export function estimateRowHeight(width: number, columns: number, displayText: boolean, controls: boolean): number {
  const column = width > 0 ? (width - GAP * (columns - 1)) / columns : COLUMN_MIN;
  return Math.round(column + (displayText ? 170 : 0) + (controls ? 45 : 0));
}

/**
 * The row indexes to mount: the range near the screen and the focused card's row, in order.
 * Exported for tests.
 */
export function rowsToMount(range: Range, focusedRow: number | null): number[] {
  const rows = defaultRangeExtractor(range);
  if (focusedRow === null || focusedRow < 0 || focusedRow >= range.count || rows.includes(focusedRow)) return rows;
  return [...rows, focusedRow].sort((a, b) => a - b);
}

/** Where the grid starts in its scroller's content (the page, or the full-screen wall). */
function offsetIn(list: HTMLElement, scroller: HTMLElement | null): number {
  const top = list.getBoundingClientRect().top;
  return scroller ? top - scroller.getBoundingClientRect().top + scroller.scrollTop : top + window.scrollY;
}

/**
 * Browsers that keep the content in view when something above it changes size (CSS scroll
 * anchoring) do so for the grid too: rows measured above the screen, new posts at the top. Where
 * they do not, the virtualizer corrects the scroll itself.
 */
const BROWSER_ANCHORS = typeof CSS !== 'undefined' && typeof CSS.supports === 'function' && CSS.supports('overflow-anchor', 'auto');

type Scroller = Element | Window;

/**
 * `useVirtualizer` with the page or an element as the scroller, chosen by the options' observers:
 * the wall scrolls with the page, and in full screen inside itself.
 */
type Options = VirtualizerOptions<Scroller, HTMLLIElement> & { useFlushSync?: boolean };
const useScrollerVirtualizer = useVirtualizer as unknown as (options: Options) => Virtualizer<Scroller, HTMLLIElement>;

export interface WallGridProps {
  posts: WallPost[];
  theme: WallTheme;
  displayText: boolean;
  now: number;
  /** Keys on the wall as last shown: a card mounting for a post not among them slides in. Null: none does. */
  shownKeys: ReadonlySet<string> | null;
  onBroken: (key: string) => void;
  /** Moderators' select box and Show/Hide under each card. */
  controls: boolean;
  selection: ReadonlySet<string>;
  busy: boolean;
  onSelect: (key: string, on: boolean) => void;
  onVisibility: (key: string, visibility: 0 | 1) => void;
  /** The element that scrolls the wall (full screen), or null for the page. */
  scroller: HTMLElement | null;
}

export const WallGrid = memo(function WallGrid({
  posts,
  theme,
  displayText,
  now,
  shownKeys,
  onBroken,
  controls,
  selection,
  busy,
  onSelect,
  onVisibility,
  scroller,
}: WallGridProps) {
  const listRef = useRef<HTMLUListElement>(null);
  const [width, setWidth] = useState(0);
  const [margin, setMargin] = useState(0);
  const [focusedKey, setFocusedKey] = useState<string | null>(null);

  const columns = columnCount(width);
  const rowCount = Math.ceil(posts.length / columns);
  const focusedIndex = focusedKey === null ? -1 : posts.findIndex((p) => p.key === focusedKey);
  const focusedRow = focusedIndex < 0 ? null : Math.floor(focusedIndex / columns);

  // The grid's width (its columns) and where it starts in the scroller, kept up to date as the
  // page around it changes (the queue or the selection bar above it, the window's size).
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const update = () => {
      setWidth(list.clientWidth);
      const m = Math.round(offsetIn(list, scroller));
      setMargin((old) => (Math.abs(old - m) >= 1 ? m : old));
    };
    update();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(update);
    ro.observe(list);
    ro.observe(document.body);
    return () => ro.disconnect();
  }, [scroller]);

  const estimate = estimateRowHeight(width, columns, displayText, controls);
  const layout = `${columns}:${displayText ? 't' : ''}${controls ? 'c' : ''}`;
  // The same functions from render to render, so the virtualizer keeps what it has worked out.
  const estimateSize = useCallback(() => estimate, [estimate]);
  const getItemKey = useCallback((row: number) => `${layout}:${row}`, [layout]);
  const rangeExtractor = useCallback((range: Range) => rowsToMount(range, focusedRow), [focusedRow]);
  const options: Options = {
    count: rowCount,
    getScrollElement: () => scroller ?? (typeof window !== 'undefined' ? window : null),
    estimateSize,
    // Measured heights are kept per layout: other columns or another card make other rows.
    getItemKey,
    overscan: OVERSCAN_ROWS,
    // Not inside the scroll event: see the deferred rows below.
    useFlushSync: false,
    gap: GAP,
    scrollMargin: margin,
    rangeExtractor,
    // An element that is not laid out (0 high) keeps the estimate rather than collapse its row.
    measureElement: (el, entry) => Math.round(entry?.borderBoxSize?.[0]?.blockSize ?? el.getBoundingClientRect().height) || estimate,
    observeElementRect: (scroller ? observeElementRect : observeWindowRect) as Options['observeElementRect'],
    observeElementOffset: (scroller ? observeElementOffset : observeWindowOffset) as Options['observeElementOffset'],
    scrollToFn: (scroller ? elementScroll : windowScroll) as Options['scrollToFn'],
    initialOffset: () => (scroller ? scroller.scrollTop : typeof window !== 'undefined' ? window.scrollY : 0),
  };
  const virtualizer = useScrollerVirtualizer(options);
  if (BROWSER_ANCHORS) virtualizer.shouldAdjustScrollPositionOnItemSizeChange = () => false;

  // The rows to mount follow the scroll at a lower priority than the scroll itself: React renders
  // the cards coming into range in slices between frames (the rows beyond the screen leave it the
  // time), rather than in the frame that scrolls. Other posts or columns, and the first rows of an
  // empty grid, come at once.
  const liveRows = virtualizer.getVirtualItems();
  const live = useMemo(() => ({ rows: liveRows, posts, columns }), [liveRows, posts, columns]);
  const deferred = useDeferredValue(live);
  const rows = deferred.posts === posts && deferred.columns === columns && deferred.rows.length ? deferred.rows : liveRows;
  const total = virtualizer.getTotalSize();
  // Each row's height is its first card's (the cards of a row stretch to the tallest), watched as
  // it changes. When other posts fill the rows (new ones at the top, one hidden) a row may hold
  // cards of the same height as before in another row: measure the mounted rows again then.
  const measure = virtualizer.measureElement;
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list) return;
    for (const li of list.querySelectorAll<HTMLLIElement>(':scope > li[data-index]')) {
      const height = Math.round(li.getBoundingClientRect().height);
      if (height > 0) virtualizer.resizeItem(Number(li.dataset.index), height);
    }
  }, [virtualizer, posts, columns]);

  const onFocus = useCallback((e: FocusEvent<HTMLUListElement>) => {
    const key = (e.target as HTMLElement).closest?.('li[data-key]')?.getAttribute('data-key') ?? null;
    setFocusedKey(key);
  }, []);
  const onBlur = useCallback((e: FocusEvent<HTMLUListElement>) => {
    if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocusedKey(null);
  }, []);

  const top = rows.length ? rows[0].start - margin : 0;
  const bottom = rows.length ? Math.max(0, total - (rows[rows.length - 1].end - margin)) : 0;
  const children = [];
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    const previous = rows[i - 1];
    if (previous && r.index > previous.index + 1) {
      // The rows between two mounted ones, as one full-width spacer (it has a gap on each side).
      const height = Math.max(0, r.start - previous.end - 2 * GAP);
      children.push(<li key={`gap-${r.index}`} role="none" aria-hidden="true" className="col-span-full" style={{ height }} />);
    }
    const first = r.index * columns;
    for (let c = 0; c < columns && first + c < posts.length; c++) {
      const p = posts[first + c];
      children.push(
        <li
          key={p.key}
          ref={c === 0 ? measure : undefined}
          data-index={c === 0 ? r.index : undefined}
          data-key={p.key}
          aria-setsize={posts.length}
          aria-posinset={first + c + 1}
          className="flex"
        >
          <div className="flex w-full flex-col [&>article]:flex-1">
            <WallPostCard
              post={p}
              theme={theme}
              displayText={displayText}
              now={now}
              enter={shownKeys !== null && !shownKeys.has(p.key)}
              onBroken={onBroken}
              controls={controls}
              selected={controls && selection.has(p.key)}
              busy={busy}
              onSelect={onSelect}
              onVisibility={onVisibility}
            />
          </div>
        </li>,
      );
    }
  }

  return (
    <ul
      ref={listRef}
      className="grid gap-4"
      style={{ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`, paddingTop: top, paddingBottom: bottom }}
      aria-label="Posts"
      data-testid="wall-grid"
      data-count={posts.length}
      data-columns={columns}
      onFocus={onFocus}
      onBlur={onBlur}
    >
      {children}
    </ul>
  );
});
