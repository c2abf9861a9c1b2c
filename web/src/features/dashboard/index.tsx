// Dashboard (also "realtime"): Key Statistics and Timeline pinned on top, then the panels for the
// selected platforms on a 12-column grid. One request per panel group; a full fetch lists every
// group as loading and removes each as it lands; background refreshes replace data only when it
// changed. Each embeddable panel offers its embed code; an embed of one chart shows that panel alone.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Query } from '../../api/client';
import { useQueryClient } from '@tanstack/react-query';
import {
  timelineCsvUrl,
  useDashboardGroup,
  usePrediction,
  type DashboardAnswers,
  type DashboardGroup,
  type KeyStatistics,
} from '../../api/queries/dashboard';
import { EmptyState } from '../../components/EmptyState';
import { LivePreview } from '../preview/LivePreview';
import { usePreview } from '../preview/PreviewController';
import { Panel } from '../../components/Panel';
import { formatMetric, formatRate } from '../../lib/numbers';
import { defaultDays, type EriMetric, type Grouping } from '../../state/query-state';
import { useShell } from '../shell/context';
import { autoRefreshOn, bucketRange, GROUPING_MS, nextRefreshFrequency, REFRESH_DEFAULT_S, sideGrouping } from './data';
import { PanelBody } from './PanelBodies';
import { chartGroups, embedChartOf, embedPanels, groupsFor, layoutPanels } from './panels';
import { rangeOf, SidePanel, type SideView } from './SideView';
import { TimelineChart, TimelineControls } from './Timeline';
import { DataTable, loadCharts } from './charts/Chart';
import { EmbedDialog } from '../shell/EmbedDialog';
import { CARD_CHARTS, isEmbedChart, parseCard, type EmbedCard } from '../shell/embed';
import { IconCode, IconDownload } from '../../components/icons';

const SPAN: Record<4 | 6 | 12, string> = {
  4: 'col-span-12 lg:col-span-4',
  6: 'col-span-12 lg:col-span-6',
  12: 'col-span-12',
};

export const KEY_STATS = ['Posts', 'Users', 'Engagement', 'Reach', 'Impressions', 'Engagement Rate'] as const;

/** Impressions are an authenticated metric (hidden with 'Hide Authenticated Metrics'). */
const AUTH_METRICS: ReadonlySet<string> = new Set(['Impressions']);

export const PREDICTION_DEFAULT_DAYS = 30;

function statValue(k: (typeof KEY_STATS)[number], s: KeyStatistics | undefined): string {
  if (!s) return '…';
  switch (k) {
    case 'Posts':
      return formatMetric(s.posts);
    case 'Users':
      return formatMetric(s.users);
    case 'Engagement':
      return formatMetric(s.engagement);
    case 'Reach':
      return formatMetric(s.reach);
    case 'Impressions':
      return formatMetric(s.impressions);
    case 'Engagement Rate':
      return formatRate(s.engagementRate);
  }
}

function Loading() {
  return <EmptyState graphic="Loading" title="Loading..." body="" compact />;
}

export default function DashboardPage() {
  const { tracker } = useShell();
  const { stream } = usePreview();
  if (tracker.isPreviewMode) {
    // The panels fill from the stored posts as each streamed batch lands.
    return (
      <LivePreview stream={stream}>
        <Dashboard />
      </LivePreview>
    );
  }
  return <Dashboard />;
}

function Dashboard() {
  const { tracker, platforms, filters, query, update, now, access } = useShell();
  const date = query.date ?? { kind: 'days' as const, days: defaultDays('dashboard') };
  const auto = autoRefreshOn(tracker.status, date, now);
  const [freq, setFreq] = useState(REFRESH_DEFAULT_S);
  const interval: number | false = auto ? freq * 1000 : false;
  // An embed of one chart (`embed=1&chart=NAME`) shows that chart alone and asks for its data only:
  // its embed key opens nothing else.
  const only = access.embed && query.chart ? query.chart : null;
  const groups = useMemo(() => {
    const all = groupsFor(platforms);
    return only === null ? all : all.filter((g) => chartGroups(only).includes(g));
  }, [platforms, only]);
  // The chart code (and the world map when the Location panel shows) is fetched alongside the
  // panel data rather than after it lands.
  const wantsWorld = groups.includes('locations');
  useEffect(() => {
    // The map's data downloads beside the chart code (both are cached modules, so the charts'
    // own imports later resolve at once).
    const world = wantsWorld ? Promise.all([import('world-atlas/countries-110m.json'), import('topojson-client')]) : null;
    Promise.all([loadCharts(), world])
      .then(([m]) => (wantsWorld ? m.loadWorld() : undefined))
      .catch(() => undefined);
  }, [wantsWorld]);
  const grouping: Grouping = query.grouping ?? 'none';
  const eri: EriMetric | null = query.eridropdown;
  const cumulative = query.cumulative;
  const base = filters as Query;
  const [predictionOn, setPrediction] = useState(false);
  // A shared link shows the forecast only with 'View predictions'; an embed never asks for it.
  const prediction = predictionOn && access.canViewPredictions && !access.embed;
  // The forecast is daily: with prediction on the timeline is drawn by day.
  const timelineQ = useMemo(() => ({ ...base, grouping: prediction ? 'day' : grouping }), [base, grouping, prediction]);
  const influencerQ = useMemo(
    // Anonymised facebook authors are left out of the influencer lists (facebook=0).
    () => (tracker.anonymizeFacebook && platforms.includes('fb') ? { ...base, facebook: 0 } : base),
    [base, platforms, tracker.anonymizeFacebook],
  );
  const on = (g: DashboardGroup) => ({ enabled: groups.includes(g), refetchInterval: interval });
  const h = tracker.hash;
  const results = {
    topStats: useDashboardGroup(h, 'topStats', base, on('topStats')),
    timeline: useDashboardGroup(h, 'timeline', timelineQ, on('timeline')),
    locations: useDashboardGroup(h, 'locations', base, on('locations')),
    topPosts: useDashboardGroup(h, 'topPosts', base, on('topPosts')),
    sentiments: useDashboardGroup(h, 'sentiments', base, on('sentiments')),
    devices: useDashboardGroup(h, 'devices', base, on('devices')),
    genders: useDashboardGroup(h, 'genders', base, on('genders')),
    postTypes: useDashboardGroup(h, 'postTypes', base, on('postTypes')),
    viewerSentiments: useDashboardGroup(h, 'viewerSentiments', base, on('viewerSentiments')),
    influencers: useDashboardGroup(h, 'influencers', influencerQ, on('influencers')),
    topics: useDashboardGroup(h, 'topics', base, on('topics')),
    topPages: useDashboardGroup(h, 'topPages', base, on('topPages')),
  };
  // A full fetch: the group has no answer for these filters yet (first load or filters changed).
  const loading = groups.filter((g) => results[g].isLoading || (results[g].isFetching && results[g].isPlaceholderData));
  const answers: Partial<DashboardAnswers> = {};
  for (const g of groups) {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    (answers as any)[g] = results[g].data;
  }

  // Refresh frequency: after each timeline fetch, 5 s slower when nothing changed, 5 s faster
  // when something did (within 60–120 s). Structural sharing keeps the same object when equal.
  const lastTimeline = useRef<unknown>(undefined);
  const timelineAt = results.timeline.dataUpdatedAt;
  useEffect(() => {
    const data = results.timeline.data;
    if (!data || results.timeline.isPlaceholderData) return;
    if (lastTimeline.current !== undefined) {
      const changed = lastTimeline.current !== data;
      setFreq((f) => nextRefreshFrequency(f, changed));
    }
    lastTimeline.current = data;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [timelineAt]);

  // Prediction: turning it on or off resets the days to 30 and drops the previous forecast.
  const qc = useQueryClient();
  const [predictionDays, setPredictionDays] = useState(PREDICTION_DEFAULT_DAYS);
  const forecast = usePrediction(h, base, predictionDays, prediction);
  const togglePrediction = (on: boolean) => {
    qc.removeQueries({ queryKey: ['trackers', 'dashboard', h, 'prediction'] });
    setPredictionDays(PREDICTION_DEFAULT_DAYS);
    setPrediction(on);
  };

  const [side, setSide] = useState<SideView | null>(null);
  const openBucket = (i: number) => {
    const tl = results.timeline.data;
    if (!tl) return;
    const g = sideGrouping(tl.grouping);
    const r = tl.grouping === 'minutes' ? bucketRange(tl.buckets, i, GROUPING_MS.minutes) : bucketRange(tl.buckets, i, GROUPING_MS[tl.grouping] ?? GROUPING_MS.hour);
    setSide({ kind: 'bucket', start: r.start, end: r.end, grouping: g });
  };

  const panels = only === null ? layoutPanels(platforms, tracker.customConfig).filter((p) => !p.hidden) : embedPanels(only);
  const stats = results.topStats.data;
  const shows = (chart: string) => only === null || only === chart;
  const card = only !== null && isEmbedChart(only) && CARD_CHARTS.has(only) ? parseCard(query.card) : null;
  const [embedding, setEmbedding] = useState<{ chart: string; title: string } | null>(null);
  const embedAction = (chart: string, title: string) => {
    const name = embedChartOf(chart);
    return access.canEmbed && name ? <EmbedPanelButton title={title} onClick={() => setEmbedding({ chart: name, title })} /> : null;
  };
  if (only !== null && !isEmbedChart(only)) {
    return (
      <div className="p-6" data-testid="dashboard-grid" data-loading="">
        <EmptyState graphic="Default" title="This chart cannot be embedded." body="Ask the tracker's owner for a new embed code." compact />
      </div>
    );
  }
  return (
    <div
      className={`grid grid-cols-12 gap-4 ${only === null ? 'p-6' : 'p-2'}`}
      data-testid="dashboard-grid"
      data-embed-chart={only ?? undefined}
      data-loading={loading.join(',')}
      aria-busy={loading.length > 0}
    >
      {shows('totalPosts') ? (
        <Panel
          title="Key Statistics"
          id="topStats"
          className="col-span-12"
          actions={
            card || access.canEmbed ? (
              <div className="flex items-center gap-3">
                {card ? <CardLabel card={card} /> : null}
                {embedAction('topStats', 'Key Statistics')}
              </div>
            ) : undefined
          }
        >
          <dl className="grid grid-cols-2 gap-4 py-2 sm:grid-cols-3 lg:grid-cols-6">
            {KEY_STATS.filter((k) => !(tracker.hideAuthMetrics && AUTH_METRICS.has(k))).map((k) => (
              <div key={k} className="rounded-lg bg-slate-50 px-4 py-3">
                <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{k}</dt>
                <dd className="mt-1 text-2xl font-semibold tabular-nums text-slate-900" data-stat={k}>
                  {statValue(k, loading.includes('topStats') && !stats ? undefined : stats)}
                </dd>
              </div>
            ))}
          </dl>
        </Panel>
      ) : null}
      {shows('timeline') ? (
        <Panel
          title="Timeline"
          id="timeline"
          className="col-span-12"
          actions={
            <div className="flex flex-wrap items-center justify-end gap-3">
              {card ? <CardLabel card={card} /> : null}
              <TimelineControls
                grouping={grouping}
                cumulative={cumulative}
                eri={eri}
                onGrouping={(g) => update((s) => ({ ...s, grouping: g === 'none' ? null : g }), { replace: true })}
                onCumulative={(c) => update((s) => ({ ...s, cumulative: c }), { replace: true })}
                onEri={(e) => update((s) => ({ ...s, eridropdown: e }), { replace: true })}
                prediction={prediction}
                onPrediction={access.canViewPredictions && !access.embed ? togglePrediction : undefined}
              />
              {/* Who may export downloads the timeline as it is grouped (not inside a frame). */}
              {access.canExport && !access.embed ? (
                <TimelineCsvButton href={timelineCsvUrl(h, timelineQ)} disabled={!!tracker.isPreviewMode} />
              ) : null}
              {embedAction('timeline', 'Timeline')}
            </div>
          }
        >
          <div className={loading.includes('timeline') && results.timeline.data ? 'opacity-60' : ''}>
            {results.timeline.isError ? (
              <p role="alert" className="py-6 text-sm text-red-700">
                {(results.timeline.error as Error).message}
              </p>
            ) : results.timeline.data ? (
              <>
                {prediction ? (
                  <div className="mb-2 flex flex-wrap items-center gap-3 text-xs text-slate-600" data-testid="prediction-controls">
                    <label className="flex items-center gap-1.5">
                      Predict the next
                      <input
                        type="number"
                        min={1}
                        max={365}
                        value={predictionDays}
                        onChange={(e) => {
                          const n = Math.round(Number(e.target.value));
                          if (n >= 1 && n <= 365) setPredictionDays(n);
                        }}
                        className="h-7 w-16 rounded border border-slate-300 px-1.5"
                      />
                      days
                    </label>
                    <span aria-live="polite">
                      {forecast.isLoading
                        ? 'Forecasting...'
                        : forecast.data
                          ? `Daily posts forecast from ${forecast.data.historyDays} days of history (shaded: 95% range).`
                          : forecast.isError
                            ? 'The forecast could not be computed.'
                            : ''}
                    </span>
                    {forecast.data?.points.length ? (
                      <details className="w-full">
                        <summary className="cursor-pointer">Forecast table</summary>
                        <DataTable
                          head={['Day', 'Posts (forecast)', 'Low', 'High']}
                          rows={forecast.data.points.map((p) => [new Date(p.t).toLocaleDateString(), p.value, p.lower, p.upper])}
                        />
                      </details>
                    ) : null}
                  </div>
                ) : null}
                <TimelineChart
                  data={results.timeline.data}
                  eri={eri}
                  cumulative={cumulative}
                  // A chart embed reads the timeline alone: no posts of a bucket.
                  onBucket={only === null ? openBucket : undefined}
                  prediction={prediction && !cumulative ? forecast.data?.points : undefined}
                />
              </>
            ) : (
              <Loading />
            )}
          </div>
        </Panel>
      ) : null}
      {panels.map((p) => {
        const r = results[p.group];
        const busy = loading.includes(p.group);
        return (
          <Panel key={p.chart} title={p.title} id={p.chart} className={SPAN[p.width]} actions={embedAction(p.chart, p.title)}>
            <div aria-busy={busy} className={busy && r.data ? 'opacity-60 transition-opacity' : ''} data-panel-body={p.chart}>
              {!groups.includes(p.group) ? (
                // Not requested for these platforms (e.g. no location-bearing platform): no data.
                <EmptyState graphic={p.graphic} compact />
              ) : r.isError && !r.data ? (
                <p role="alert" className="py-6 text-sm text-red-700">
                  This panel could not be loaded.
                </p>
              ) : !r.data ? (
                <Loading />
              ) : (
                <PanelBody
                  panel={p}
                  answers={answers}
                  onTopic={(kind, term) => (only === null ? setSide({ kind: 'topic', topic: kind, term }) : undefined)}
                />
              )}
            </div>
          </Panel>
        );
      })}
      <SidePanel
        view={side}
        onClose={() => setSide(null)}
        hash={tracker.hash}
        filters={base}
        canDownload={access.canDownload}
        onGrouping={(g) => setSide((v) => (v && v.kind === 'bucket' ? { kind: 'bucket', grouping: g, ...rangeOf(v.start, g) } : v))}
      />
      {embedding ? (
        <EmbedDialog
          open
          onOpenChange={(o) => (o ? undefined : setEmbedding(null))}
          hash={tracker.hash}
          target={{ chart: embedding.chart }}
          label={embedding.title}
        />
      ) : null}
    </div>
  );
}

/** The small Embed action in a panel's header. */
function EmbedPanelButton({ title, onClick }: { title: string; onClick: () => void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={`Embed ${title}`}
      aria-haspopup="dialog"
      title={`Embed ${title}`}
      className={panelAction}
    >
      <IconCode size={14} />
      Embed
    </button>
  );
}

const panelAction =
  'inline-flex h-7 shrink-0 items-center gap-1 rounded-md px-2 text-xs font-medium text-slate-500 hover:bg-slate-100 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-brand-600';

/** The timeline's CSV: a plain download link (disabled while the tracker is a preview). */
function TimelineCsvButton({ href, disabled }: { href: string; disabled: boolean }) {
  if (disabled) {
    return (
      <button type="button" disabled title="Exports open once the preview has ended." className={`${panelAction} disabled:cursor-not-allowed disabled:opacity-50`}>
        <IconDownload size={14} />
        Download CSV
      </button>
    );
  }
  return (
    <a href={href} download className={panelAction} title="Download the timeline as a CSV file" data-testid="timeline-csv">
      <IconDownload size={14} />
      Download CSV
    </a>
  );
}

/** A chart embed's card (`card=platform;value`): the platform and the label it was given. */
function CardLabel({ card }: { card: EmbedCard }) {
  const info = card.platform;
  return (
    <span className="inline-flex max-w-xs items-center gap-1.5 truncate rounded-full bg-slate-100 px-2.5 py-1 text-xs font-medium text-slate-700" data-testid="embed-card">
      <span className={`rounded px-1 text-[10px] font-bold ${info.badge}`}>{info.short}</span>
      <span className="truncate">{card.value}</span>
    </span>
  );
}
