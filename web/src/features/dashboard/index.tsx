// Dashboard (also "realtime"): Key Statistics and Timeline pinned on top, then the panels for the
// selected platforms on a 12-column grid, each in its empty state until data arrives.
import { EmptyState, PREVIEW_BODY, PREVIEW_TITLE } from '../../components/EmptyState';
import { Panel } from '../../components/Panel';
import { useShell } from '../shell/context';
import { layoutPanels } from './panels';

const SPAN: Record<4 | 6 | 12, string> = {
  4: 'col-span-12 lg:col-span-4',
  6: 'col-span-12 lg:col-span-6',
  12: 'col-span-12',
};

export const KEY_STATS = ['Posts', 'Users', 'Engagement', 'Reach', 'Impressions'] as const;

export default function DashboardPage() {
  const { tracker, platforms } = useShell();
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
        <dl className="grid grid-cols-2 gap-4 py-2 sm:grid-cols-3 lg:grid-cols-5">
          {KEY_STATS.map((k) => (
            <div key={k} className="rounded-lg bg-slate-50 px-4 py-3">
              <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{k}</dt>
              <dd className="mt-1 text-2xl font-semibold tabular-nums text-slate-900">0</dd>
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
