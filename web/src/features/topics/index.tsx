// Trending Topics: the words and hashtags of the header's range with their posts, share,
// sparkline and trend score, sortable by posts or trend and paged 20 at a time; a topic drills
// down to the topics that appear with it (three layers, a breadcrumb back to each); the layer's
// chart over time; and side views of a topic's posts and of a chart bucket's posts. The tab and
// path live in the URL beside the shared sort and page, so a reload or a shared link shows the
// same layer.
import { useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { useTopicLayer, useTopicSeries, type TopicLayer } from '../../api/queries/topics';
import { Button } from '../../components/Button';
import { EMPTY_BODY, EMPTY_TITLE, EmptyState, PREVIEW_BODY, PREVIEW_TITLE } from '../../components/EmptyState';
import { LoadError } from '../../components/LoadError';
import { Panel } from '../../components/Panel';
import { formatMetric } from '../../lib/numbers';
import { platformInfo } from '../../lib/platforms';
import { availablePlatforms, pagePlatforms } from '../../state/access';
import { useShell } from '../shell/context';
import { TopicSideView } from './TopicSideView';
import { InfoIcon, TopicTable, TopicTableSkeleton } from './TopicTable';
import { TopicTrendsChart } from './TopicTrendsChart';
import {
  bucketRange,
  CHART_ITEMS,
  chartData,
  chartTerms,
  KIND_LABEL,
  layerQuery,
  MAX_PATH,
  NO_PLATFORM,
  pageCount,
  pathLabel,
  rangeLabel,
  seriesQuery,
  termLabel,
  TOPIC_KINDS,
  TOPICS_PAGE_SIZE,
  topicSort,
  toggleTopicSort,
  TREND_SUMMARY,
  windowText,
  type PostsTarget,
  type TermRef,
  type TopicKind,
  type TopicView,
} from './topics-data';
import { useTopicView } from './use-topic-view';

/** A plain left click is handled here; other clicks (new tab, copy link) keep the link's own behaviour. */
function plainClick(e: MouseEvent) {
  return e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey;
}

export default function TopicsPage() {
  const { tracker, query, filters } = useShell();
  const locked = tracker.isPreviewMode;
  const { view, go, href } = useTopicView();
  const sort = topicSort(query.sort);
  const page = query.page;

  const layerQ = useMemo(() => layerQuery(filters, view, sort, page), [filters, view, sort, page]);
  const layer = useTopicLayer(tracker.hash, layerQ, !locked);
  const data = layer.data;
  // The layer asked for, not the one before it still shown while it loads.
  const settled = data && !layer.isPlaceholderData ? data : null;
  const noPlatform = data?.reason === NO_PLATFORM;

  const chartItems = useMemo(() => chartTerms(settled?.items ?? []), [settled]);
  const seriesQ = useMemo(() => seriesQuery(filters, view.path, chartItems), [filters, view.path, chartItems]);
  const wantsSeries = !!settled && settled.reason === null && settled.posts > 0 && (view.path.length > 0 || chartItems.length > 0);
  const series = useTopicSeries(tracker.hash, seriesQ, !locked && wantsSeries);
  const chart = useMemo(() => (series.data ? chartData(series.data, view.path) : null), [series.data, view.path]);

  const [target, setTarget] = useState<PostsTarget | null>(null);
  const card = useRef<HTMLElement>(null);

  const toView = (next: TopicView) => go(next, { page: 1 });
  const goTo = (n: number) => {
    go(view, { page: n });
    card.current?.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
  };
  const last = view.path.length >= MAX_PATH;
  const drill = last
    ? null
    : {
        href: (t: TermRef) => href({ kind: view.kind, path: [...view.path, t] }, { page: 1 }),
        go: (t: TermRef) => toView({ kind: view.kind, path: [...view.path, t] }),
      };

  const items = data?.items ?? [];
  const total = data?.total ?? 0;
  const pages = pageCount(total, data?.perPage ?? TOPICS_PAGE_SIZE);
  const kindWord = KIND_LABEL[view.kind].toLowerCase();

  return (
    <div>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1 border-b border-slate-200 bg-white px-6 py-3">
        <Breadcrumb view={view} href={(v) => href(v, { page: 1 })} onGo={toView} />
        {data && !noPlatform && !layer.isError ? (
          <span className="text-sm text-slate-500" data-testid="layer-posts">
            {formatMetric(data.posts)} {data.posts === 1 ? 'post' : 'posts'}
            {view.path.length ? ` with ${pathLabel(view.path, ' + ')}` : ' in this range'}
          </span>
        ) : null}
      </div>
      <div className="grid grid-cols-12 items-start gap-4 p-6">
        <section
          ref={card}
          className="col-span-12 flex scroll-mt-4 flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm xl:col-span-7"
          aria-labelledby="trendingTopics-title"
          data-panel="trendingTopics"
        >
          <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-100 px-4 py-3">
            <h2 id="trendingTopics-title" className="text-sm font-semibold text-slate-800">
              Trending Topics
            </h2>
            <KindTabs kind={view.kind} onChange={(k) => toView({ kind: k, path: view.path })} />
          </div>
          <div role="tabpanel" id="topics-tabpanel" aria-labelledby={`topics-tab-${view.kind}`} className="flex flex-1 flex-col">
            {locked ? (
              <EmptyState graphic="Loading" title={PREVIEW_TITLE} body={PREVIEW_BODY} />
            ) : layer.isError ? (
              <LoadError error={layer.error} onRetry={() => void layer.refetch()} />
            ) : !data ? (
              <TopicTableSkeleton sort={sort} />
            ) : noPlatform ? (
              <NoPlatform />
            ) : (
              <div aria-busy={layer.isPlaceholderData} className={layer.isPlaceholderData ? 'opacity-60 transition-opacity' : ''}>
                {items.length ? <TrendLegend data={data} /> : null}
                {data.posts === 0 ? (
                  view.path.length ? (
                    <EmptyState graphic="BullhornEllipsesWithHashtags" title={`No posts in this range mention ${pathLabel(view.path, ' and ')}.`} body="Go back a layer, or expand the date range." />
                  ) : (
                    <EmptyState graphic="BullhornEllipsesWithHashtags" title={EMPTY_TITLE} body={EMPTY_BODY} />
                  )
                ) : items.length === 0 ? (
                  total > 0 && page > 1 ? (
                    <div className="p-10 text-center text-sm text-slate-600">
                      <p>This page is past the end of the list.</p>
                      <Button className="mt-3" variant="secondary" size="sm" onClick={() => goTo(1)}>
                        Go to the first page
                      </Button>
                    </div>
                  ) : (
                    <EmptyState
                      graphic="BullhornEllipsesWithHashtags"
                      title={view.path.length ? `No other ${kindWord} appear with ${pathLabel(view.path, ' and ')}.` : `No ${kindWord} in these posts.`}
                      body={view.kind === 'word' ? 'Try the Hashtags tab, or expand the date range.' : 'Try the Words tab, or expand the date range.'}
                    />
                  )
                ) : (
                  <>
                    <TopicTable
                      items={items}
                      grouping={data.grouping}
                      sort={sort}
                      onSort={(field) => go(view, { sort: toggleTopicSort(sort, field), page: 1 })}
                      drill={drill}
                      onPosts={(t) => setTarget({ kind: 'topic', path: [...view.path, t] })}
                      caption={`${KIND_LABEL[view.kind]}${view.path.length ? ` that appear with ${pathLabel(view.path, ' and ')}` : ' of the range'}, by ${sort.type === 'trend' ? 'trend score' : 'posts'}.${last ? '' : ' Select a topic to see the topics that appear with it.'}`}
                    />
                    <nav className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-100 px-4 py-3 text-sm text-slate-600" aria-label="Pages">
                      <span data-testid="topics-range">
                        {rangeLabel(page, data.perPage, items.length, total)} {total === 1 ? 'topic' : 'topics'}
                      </span>
                      <span className="flex items-center gap-2">
                        <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => goTo(page - 1)}>
                          Prev
                        </Button>
                        <span className="tabular-nums" aria-live="polite">
                          Page {page} of {pages}
                        </span>
                        <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => goTo(page + 1)}>
                          Next
                        </Button>
                      </span>
                    </nav>
                  </>
                )}
              </div>
            )}
          </div>
        </section>
        <Panel title="Topic Trends Over Time" id="topicTrends" className="col-span-12 xl:sticky xl:top-18 xl:col-span-5">
          <div className="py-1">
            {locked ? (
              <EmptyState graphic="Loading" title={PREVIEW_TITLE} body={PREVIEW_BODY} compact />
            ) : noPlatform ? (
              <NoPlatform compact />
            ) : layer.isError ? (
              <EmptyState graphic="PlatformsWithArrowUp" title="No topics to chart." body="The topics could not be loaded." compact />
            ) : series.isError ? (
              <div role="alert" className="py-8 text-center text-sm text-red-700">
                The chart could not be loaded.
                <div className="mt-3">
                  <Button variant="secondary" size="sm" onClick={() => void series.refetch()}>
                    Try again
                  </Button>
                </div>
              </div>
            ) : settled && !wantsSeries ? (
              <EmptyState graphic="PlatformsWithArrowUp" compact />
            ) : !chart ? (
              <EmptyState graphic="Loading" title="Loading..." body="" compact />
            ) : (
              <div
                className={series.isPlaceholderData || layer.isPlaceholderData ? 'opacity-60 transition-opacity' : ''}
                aria-busy={series.isPlaceholderData || layer.isPlaceholderData}
                data-testid="chart-body"
              >
                <p className="mb-2 text-xs text-slate-500" data-testid="chart-subtitle">
                  {view.path.length
                    ? `Posts per ${chart.grouping} with ${pathLabel(view.path, ' + ')}, and with each of the first ${CHART_ITEMS} ${kindWord} of this page.`
                    : `Posts per ${chart.grouping} of the first ${CHART_ITEMS} ${kindWord} of this page.`}
                </p>
                <TopicTrendsChart
                  data={chart}
                  onBucket={(i) => {
                    const r = bucketRange(chart.buckets, i, chart.grouping);
                    setTarget({ kind: 'bucket', path: view.path, start: r.start, end: r.end, grouping: chart.grouping });
                  }}
                />
                <p className="mt-1 text-xs text-slate-500">Click a {chart.grouping} in the chart to see its posts.</p>
              </div>
            )}
          </div>
        </Panel>
      </div>
      <TopicSideView hash={tracker.hash} filters={filters} target={target} onClose={() => setTarget(null)} />
    </div>
  );
}

/** 'All topics › coffee › #brew': every layer above the current one is a link back to it. */
function Breadcrumb({ view, href, onGo }: { view: TopicView; href: (v: TopicView) => string; onGo: (v: TopicView) => void }) {
  const crumbs: { label: string; view: TopicView }[] = [
    { label: 'All topics', view: { kind: view.kind, path: [] } },
    ...view.path.map((t, i) => ({ label: termLabel(t), view: { kind: view.kind, path: view.path.slice(0, i + 1) } })),
  ];
  return (
    <nav aria-label="Topic layers" data-testid="topic-breadcrumb">
      <ol className="flex flex-wrap items-center text-sm">
        {crumbs.map((c, i) => {
          const current = i === crumbs.length - 1;
          return (
            <li key={c.label + i} className="flex min-w-0 items-center">
              {i > 0 ? (
                <span aria-hidden="true" className="px-1.5 text-slate-400">
                  {' › '}
                </span>
              ) : null}
              {current ? (
                <span aria-current="page" className="truncate font-semibold text-slate-900">
                  {c.label}
                </span>
              ) : (
                <a
                  href={href(c.view)}
                  onClick={(e) => {
                    if (!plainClick(e)) return;
                    e.preventDefault();
                    onGo(c.view);
                  }}
                  className="truncate rounded font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
                >
                  {c.label}
                </a>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

/** Words / Hashtags: a tab list (arrow keys, Home and End move between the tabs). */
function KindTabs({ kind, onChange }: { kind: TopicKind; onChange: (k: TopicKind) => void }) {
  const refs = useRef<Partial<Record<TopicKind, HTMLButtonElement | null>>>({});
  const onKeyDown = (e: KeyboardEvent) => {
    const i = TOPIC_KINDS.indexOf(kind);
    let next: TopicKind | null = null;
    if (e.key === 'ArrowRight') next = TOPIC_KINDS[(i + 1) % TOPIC_KINDS.length];
    else if (e.key === 'ArrowLeft') next = TOPIC_KINDS[(i - 1 + TOPIC_KINDS.length) % TOPIC_KINDS.length];
    else if (e.key === 'Home') next = TOPIC_KINDS[0];
    else if (e.key === 'End') next = TOPIC_KINDS[TOPIC_KINDS.length - 1];
    if (!next) return;
    e.preventDefault();
    refs.current[next]?.focus();
    if (next !== kind) onChange(next);
  };
  return (
    <div role="tablist" aria-label="Topic kind" className="inline-flex rounded-md border border-slate-200 p-0.5 text-xs" onKeyDown={onKeyDown}>
      {TOPIC_KINDS.map((k) => (
        <button
          key={k}
          ref={(el) => {
            refs.current[k] = el;
          }}
          type="button"
          role="tab"
          id={`topics-tab-${k}`}
          aria-selected={kind === k}
          aria-controls="topics-tabpanel"
          tabIndex={kind === k ? 0 : -1}
          onClick={() => kind !== k && onChange(k)}
          className={`rounded px-3 py-1 font-medium focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600 ${kind === k ? 'bg-slate-800 text-white' : 'text-slate-600 hover:bg-slate-100'}`}
        >
          {KIND_LABEL[k]}
        </button>
      ))}
    </div>
  );
}

/** What the trend score means and which windows it compares. */
function TrendLegend({ data }: { data: TopicLayer }) {
  return (
    <div className="flex items-start gap-2 border-b border-slate-100 bg-slate-50/70 px-4 py-2.5 text-xs leading-relaxed text-slate-600" data-testid="trend-legend">
      <span className="mt-0.5 shrink-0 text-slate-400">
        <InfoIcon />
      </span>
      <p>
        <span className="font-semibold text-slate-700">Trend score: </span>
        {TREND_SUMMARY}
        {data.window ? <span data-testid="trend-window"> {windowText(data.window)}</span> : null}
      </p>
    </div>
  );
}

/** The chosen platforms leave the page none of its own. */
function NoPlatform({ compact = false }: { compact?: boolean }) {
  const { tracker } = useShell();
  const own = availablePlatforms('trending-topics', tracker.platforms);
  const names = (own.length ? own : pagePlatforms('trending-topics')).map((c) => platformInfo(c).label);
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}` : names[0];
  return (
    <div data-testid="no-platform">
      <EmptyState
        graphic="PlatformsWithLightningBolt"
        title="Choose a platform to see trending topics."
        body={`Trending topics are counted on ${list} posts: choose ${names.length > 1 ? 'one of them' : 'it'} in the platform filter above.`}
        compact={compact}
      />
    </div>
  );
}
