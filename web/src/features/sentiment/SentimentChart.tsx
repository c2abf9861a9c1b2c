// Sentiment Over Time: the buckets stacked per hour, day or week. Dragging across the chart
// picks a period (an ECharts brush); the data table under it offers the same per bucket
// without a pointer.
import { useEffect, useMemo, useRef } from 'react';
import type { SentimentOverview } from '../../api/queries/sentiment';
import { formatMetric } from '../../lib/numbers';
import type { SentimentBucket } from '../../state/query-state';
import { DataTable } from '../dashboard/charts/Chart';
import { useEChart } from '../dashboard/charts/use-echart';
import { BRUSH, LEGEND_ORDER, overTimeOption } from './chart-options';
import { brushRange, bucketTitle, COUNT_KEY, type Selection } from './sentiment-data';

type Module = typeof import('./echarts-brush');
let modulePromise: Promise<Module> | null = null;
function loadCharts(): Promise<Module> {
  if (!modulePromise) modulePromise = import('./echarts-brush');
  return modulePromise;
}

interface BrushEnd {
  areas?: { coordRange?: [number, number] | number[] }[];
}

export function SentimentChart({
  data,
  labels,
  onSelect,
  height = 300,
}: {
  data: SentimentOverview;
  labels: Record<SentimentBucket, string>;
  onSelect: (s: Selection) => void;
  height?: number;
}) {
  const box = useRef<HTMLDivElement>(null);
  const option = useMemo(() => overTimeOption(data.points, data.grouping, labels), [data.points, data.grouping, labels]);

  // The brush handler reads the answer drawn now.
  const latest = useRef({ data, onSelect });
  latest.current = { data, onSelect };

  const { chart, ready } = useEChart(box, loadCharts, (c) => {
    c.on('brushEnd', (p: unknown) => {
      const range = (p as BrushEnd).areas?.[0]?.coordRange;
      if (!range || range.length < 2) return;
      const { data: d, onSelect: select } = latest.current;
      const picked = brushRange(d.points, [range[0], range[1]], { start: d.start, end: d.end }, d.grouping);
      if (picked) select(picked);
      // A brush over the whole range narrows nothing: it goes away.
      else c.dispatchAction({ type: 'brush', areas: [] });
    });
  });

  useEffect(() => {
    const c = chart.current;
    if (!ready || !c) return;
    c.setOption(option, { notMerge: true });
    // New buckets: the period brushed before is gone (the chip shows what is selected), and
    // dragging on the plot draws the brush again (no toolbox button to press first).
    c.dispatchAction({ type: 'brush', areas: [] });
    c.dispatchAction({ type: 'takeGlobalCursor', key: 'brush', brushOption: BRUSH });
  }, [ready, option]);

  const totals = data.points.map((p) => LEGEND_ORDER.reduce((a, b) => a + p[COUNT_KEY[b]], 0));
  const total = totals.reduce((a, b) => a + b, 0);
  const peak = totals.indexOf(Math.max(...totals));
  const label =
    `Sentiment over time by ${data.grouping}: ${total} posts in ${data.points.length} buckets` +
    (peak >= 0 && data.points[peak] ? `, most at ${bucketTitle(data.points[peak].t, data.grouping)}.` : '.');

  return (
    <figure className="m-0" data-testid="sentiment-chart">
      <div
        ref={box}
        role="img"
        aria-label={label}
        className="cursor-crosshair"
        style={{ height, width: '100%' }}
        data-chart-ready={ready ? 'true' : 'false'}
      />
      <details className="mt-1 text-xs text-slate-500">
        <summary className="cursor-pointer select-none rounded px-1 py-0.5 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-brand-600">
          Data table
        </summary>
        <div className="mt-2 max-h-64 overflow-auto">
          <DataTable
            caption="Posts per bucket and sentiment"
            head={['Bucket', ...LEGEND_ORDER.map((b) => labels[b]), 'Total', '']}
            rows={data.points.map((p, i) => [
              bucketTitle(p.t, data.grouping),
              ...LEGEND_ORDER.map((b) => formatMetric(p[COUNT_KEY[b]])),
              formatMetric(totals[i]),
              // The period is reachable without a pointer through this row.
              <button
                key={p.t}
                type="button"
                className="text-brand-700 underline"
                aria-label={`Select ${bucketTitle(p.t, data.grouping)}`}
                onClick={() => {
                  const picked = brushRange(data.points, [i, i], { start: data.start, end: data.end }, data.grouping);
                  if (picked) onSelect(picked);
                }}
              >
                Select
              </button>,
            ])}
          />
        </div>
      </details>
    </figure>
  );
}
