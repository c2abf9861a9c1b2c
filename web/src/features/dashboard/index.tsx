// Dashboard (also "realtime"): Key Statistics and Timeline pinned on top, then the panels for the
// selected platforms on a 12-column grid, each in its empty state until data arrives.
import { EmptyState, PREVIEW_BODY, PREVIEW_TITLE } from '../../components/EmptyState';
import { Panel } from '../../components/Panel';
import { useShell } from '../shell/context';
import { layoutPanels } from './panels';
import { useKeyStatistics, type KeyStatistics } from '../../api/queries/dashboard';
import { formatMetric, formatRate } from '../../lib/numbers';

const SPAN: Record<4 | 6 | 12, string> = {
  4: 'col-span-12 lg:col-span-4',
  6: 'col-span-12 lg:col-span-6',
  12: 'col-span-12',
};

export const KEY_STATS = ['Posts', 'Users', 'Engagement', 'Reach', 'Impressions', 'Engagement Rate'] as const;

/** Impressions and the rate built on them are authenticated metrics. */
const AUTH_METRICS: ReadonlySet<string> = new Set(['Impressions']);

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

export default function DashboardPage() {
  const { tracker, platforms, filters } = useShell();
  const stats = useKeyStatistics(tracker.hash, filters as Record<string, string>);
  if (tracker.isPreviewMode) {
    return (
      <div className="p-6">
        <div className="rounded-xl border border-slate-200 bg-white shadow-sm">
          <EmptyState graphic="Loading" title={PREVIEW_TITLE} body={PREVIEW_BODY} />
        </div>
      </div>
    );
  }
  const panels = layoutPanels(platforms, tracker.customConfig).filter((p) => !p.hidden);
  return (
    <div className="grid grid-cols-12 gap-4 p-6" data-testid="dashboard-grid">
      <Panel title="Key Statistics" id="topStats" className="col-span-12">
        <dl className="grid grid-cols-2 gap-4 py-2 sm:grid-cols-3 lg:grid-cols-6">
          {KEY_STATS.filter((k) => !(tracker.hideAuthMetrics && AUTH_METRICS.has(k))).map((k) => (
            <div key={k} className="rounded-lg bg-slate-50 px-4 py-3">
              <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{k}</dt>
              <dd className="mt-1 text-2xl font-semibold tabular-nums text-slate-900">{statValue(k, stats.data)}</dd>
            </div>
          ))}
        </dl>
      </Panel>
      <Panel title="Timeline" id="timeline" className="col-span-12">
        <EmptyState graphic="PlatformsWithArrowUp" />
      </Panel>
      {panels.map((p) => (
        <Panel key={p.chart} title={p.title} id={p.chart} className={SPAN[p.width]}>
          <EmptyState graphic={p.graphic} compact />
        </Panel>
      ))}
    </div>
  );
}
