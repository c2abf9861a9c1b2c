// Topic Trends Over Time: the layer's first topics as lines (and, below a picked path, the path's
// own posts as bars) per hour, day or week. A click anywhere in a bucket's column opens the posts
// of that bucket; the data table under the chart offers the same per bucket without a pointer.
import { useLayoutEffect, useMemo, useRef } from 'react';
import { formatMetric } from '../../lib/numbers';
import { DataTable, loadCharts } from '../dashboard/charts/Chart';
import { COLORS, escapeHtml } from '../dashboard/charts/options';
import { useEChart } from '../dashboard/charts/use-echart';
import { bucketAxisLabel, type ChartData } from './topics-data';

const text = { color: '#334155', fontSize: 12 };
export const VOLUME_COLOR = '#cbd5e1';

/** The chart's ECharts option (pure: data in, option out). */
export function trendsOption(d: ChartData) {
  const labels = d.buckets.map((t) => bucketAxisLabel(t, d.grouping));
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const series: any[] = [];
  if (d.volume) {
    series.push({
      name: d.volume.name,
      type: 'bar',
      data: d.volume.points,
      barMaxWidth: 22,
      itemStyle: { color: VOLUME_COLOR, borderRadius: [2, 2, 0, 0] },
      emphasis: { itemStyle: { color: '#94a3b8' } },
    });
  }
  d.lines.forEach((l, i) =>
    series.push({
      name: l.name,
      type: 'line',
      data: l.points,
      symbol: 'circle',
      symbolSize: 6,
      showSymbol: d.buckets.length <= 45,
      lineStyle: { width: 2 },
      itemStyle: { color: COLORS[i % COLORS.length] },
      emphasis: { focus: 'series' },
    }),
  );
  return {
    animationDuration: 300,
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow', shadowStyle: { color: 'rgba(37,99,235,0.06)' } },
      confine: true,
      formatter: (params: { axisValueLabel: string; marker: string; seriesName: string; value: number }[]) => {
        const rows = params.map((p) => `${p.marker}${escapeHtml(p.seriesName)}: <b>${formatMetric(p.value)}</b>`);
        return `${escapeHtml(params[0]?.axisValueLabel ?? '')}<br/>${rows.join('<br/>')}<br/><span style="color:#64748b;font-size:11px">Click to see these posts</span>`;
      },
    },
    // The legend is drawn in the page (it wraps, and long topics stay readable).
    legend: { show: false },
    grid: { left: 8, right: 16, top: 12, bottom: 4, containLabel: true },
    xAxis: { type: 'category', data: labels, axisLabel: { ...text, hideOverlap: true }, axisTick: { alignWithLabel: true }, axisLine: { lineStyle: { color: '#cbd5e1' } } },
    yAxis: {
      type: 'value',
      minInterval: 1,
      axisLabel: { ...text, formatter: (v: number) => formatMetric(v) },
      splitLine: { lineStyle: { color: '#f1f5f9' } },
    },
    series,
  };
}

/** The chart's one-sentence summary for screen readers. */
export function trendsSummary(d: ChartData): string {
  const total = (p: number[]) => p.reduce((a, b) => a + b, 0);
  const parts = d.lines.map((l) => `${l.name} ${formatMetric(total(l.points))}`);
  const volume = d.volume ? `${d.volume.name}: ${formatMetric(total(d.volume.points))}. ` : '';
  return `Posts by ${d.grouping} in ${d.buckets.length} buckets. ${volume}${parts.length ? `Topics: ${parts.join(', ')}.` : ''}`;
}

export function TopicTrendsChart({ data, onBucket, height = 300 }: { data: ChartData; onBucket: (index: number) => void; height?: number }) {
  const box = useRef<HTMLDivElement>(null);
  const bucketRef = useRef(onBucket);
  bucketRef.current = onBucket;
  const count = useRef(data.buckets.length);
  count.current = data.buckets.length;

  const { chart, ready } = useEChart(box, loadCharts, (c) => {
    const bucketAt = (x: number, y: number): number | null => {
      if (!c.containPixel('grid', [x, y])) return null;
      const v = c.convertFromPixel({ gridIndex: 0 }, [x, y]) as number[] | undefined;
      const i = Math.round(Number(v?.[0]));
      return Number.isFinite(i) && i >= 0 && i < count.current ? i : null;
    };
    // data-chart-drawn: the last option is on screen (its animation over).
    c.on('finished', () => {
      if (box.current) box.current.dataset.chartDrawn = 'true';
    });
    const zr = c.getZr();
    zr.on('click', (e: { offsetX: number; offsetY: number }) => {
      const i = bucketAt(e.offsetX, e.offsetY);
      if (i !== null) bucketRef.current(i);
    });
    zr.on('mousemove', (e: { offsetX: number; offsetY: number }) => {
      zr.setCursorStyle(bucketAt(e.offsetX, e.offsetY) !== null ? 'pointer' : 'default');
    });
  });

  const option = useMemo(() => trendsOption(data), [data]);
  // Before paint, so the drawn mark never stands beside a new option.
  useLayoutEffect(() => {
    if (!ready || !chart.current) return;
    if (box.current) box.current.dataset.chartDrawn = 'false';
    chart.current.setOption(option, { notMerge: true });
  }, [ready, option]);

  const head = ['Bucket', ...(data.volume ? [data.volume.name] : []), ...data.lines.map((l) => l.name), ''];
  return (
    <figure className="m-0" data-testid="topic-trends-chart">
      <Legend data={data} />
      <div ref={box} role="img" aria-label={trendsSummary(data)} style={{ height, width: '100%' }} data-chart-ready={ready ? 'true' : 'false'} />
      <details className="mt-1 text-xs text-slate-500">
        <summary className="cursor-pointer select-none rounded px-1 py-0.5 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-brand-600">Data table</summary>
        <div className="mt-2 max-h-64 overflow-auto">
          <DataTable
            caption="Posts per bucket"
            head={head}
            rows={data.buckets.map((t, i) => [
              bucketAxisLabel(t, data.grouping),
              ...(data.volume ? [formatMetric(data.volume.points[i] ?? 0)] : []),
              ...data.lines.map((l) => formatMetric(l.points[i] ?? 0)),
              <button key={i} type="button" className="text-brand-700 underline" onClick={() => onBucket(i)}>
                Posts
              </button>,
            ])}
          />
        </div>
      </details>
    </figure>
  );
}

function Legend({ data }: { data: ChartData }) {
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700" aria-label="Legend" data-testid="chart-legend">
      {data.volume ? (
        <li className="flex min-w-0 items-center gap-1.5">
          <span aria-hidden="true" className="h-2.5 w-2.5 shrink-0 rounded-sm" style={{ backgroundColor: VOLUME_COLOR }} />
          <span className="truncate">{data.volume.name}</span>
        </li>
      ) : null}
      {data.lines.map((l, i) => (
        <li key={l.name} className="flex min-w-0 items-center gap-1.5">
          <span aria-hidden="true" className="h-0.5 w-3.5 shrink-0 rounded" style={{ backgroundColor: COLORS[i % COLORS.length] }} />
          <span className="max-w-[12rem] truncate">{l.name}</span>
        </li>
      ))}
    </ul>
  );
}
