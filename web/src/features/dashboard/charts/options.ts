// ECharts options for the dashboard panels (pure: data in, option out).
import type { CountryCount, TermCount } from '../../../api/queries/dashboard';
import { formatMetric } from '../../../lib/numbers';

export const COLORS = ['#2563eb', '#16a34a', '#f59e0b', '#dc2626', '#7c3aed', '#0891b2', '#db2777', '#65a30d', '#ea580c', '#475569'];
export const SENTIMENT_COLORS = { Positive: '#16a34a', Neutral: '#94a3b8', Negative: '#dc2626' };

const text = { color: '#334155', fontSize: 12 };

/** Horizontal bars, largest on top. */
export function barOption(items: TermCount[], color = COLORS[0]) {
  const rev = [...items].reverse();
  return {
    color: [color],
    grid: { left: 8, right: 40, top: 8, bottom: 8, containLabel: true },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    xAxis: { type: 'value', axisLabel: { ...text, formatter: (v: number) => formatMetric(v) }, splitLine: { lineStyle: { color: '#f1f5f9' } } },
    yAxis: {
      type: 'category',
      data: rev.map((i) => i.term),
      axisLabel: { ...text, width: 140, overflow: 'truncate' },
      axisTick: { show: false },
    },
    series: [{ type: 'bar', data: rev.map((i) => i.count), barMaxWidth: 18, label: { show: true, position: 'right', ...text, formatter: (p: { value: number }) => formatMetric(p.value) } }],
  };
}

/** A doughnut with a legend. */
export function pieOption(parts: { name: string; value: number }[], colors: string[] = COLORS) {
  return {
    color: colors,
    tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' },
    legend: { bottom: 0, textStyle: text, itemWidth: 12, itemHeight: 12 },
    series: [
      {
        type: 'pie',
        radius: ['45%', '70%'],
        center: ['50%', '45%'],
        avoidLabelOverlap: true,
        label: { show: true, formatter: '{d}%', ...text },
        data: parts,
      },
    ],
  };
}

/** The world map shaded by posts per country (features are keyed by ISO numeric id). */
export function mapOption(countries: CountryCount[]) {
  const max = Math.max(1, ...countries.map((c) => c.count));
  const names = new Map(countries.map((c) => [c.numeric ?? c.country, c.name]));
  return {
    tooltip: {
      trigger: 'item',
      formatter: (p: { name: string; value: number }) =>
        `${escapeHtml(names.get(p.name) ?? 'No posts')}${Number.isFinite(p.value) ? `: ${formatMetric(p.value)}` : ''}`,
    },
    visualMap: { min: 0, max, left: 8, bottom: 8, calculable: false, itemHeight: 80, text: ['More', 'Fewer'], textStyle: text, inRange: { color: ['#dbeafe', '#1d4ed8'] } },
    series: [
      {
        type: 'map',
        map: 'world',
        roam: false,
        emphasis: { label: { show: false }, itemStyle: { areaColor: '#f59e0b' } },
        itemStyle: { areaColor: '#f1f5f9', borderColor: '#cbd5e1', borderWidth: 0.5 },
        data: countries.filter((c) => c.numeric).map((c) => ({ name: c.numeric, value: c.count })),
      },
    ],
  };
}

/** Text made safe inside a tooltip's HTML. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export interface TimelinePoint {
  t: number;
  posts: number;
  eri: number | null;
}

/**
 * Posts as bars (clickable buckets), the ERI metric as a line on a second axis, tracker log
 * markers as vertical lines, and a prediction with its band when given.
 */
export function timelineOption(
  points: TimelinePoint[],
  opts: {
    eriName: string | null;
    logs: { action: string; createdAt: number }[];
    cumulative: boolean;
    prediction?: { t: number; value: number; lower: number; upper: number }[];
  },
) {
  const logLabel: Record<string, string> = { tracker_created: 'Created', tracker_paused: 'Paused', tracker_restarted: 'Restarted' };
  const first = points[0]?.t ?? 0;
  const last = opts.prediction?.length ? opts.prediction[opts.prediction.length - 1].t : (points[points.length - 1]?.t ?? 0);
  const logs = opts.logs.filter((l) => l.createdAt >= first && l.createdAt <= last);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const series: any[] = [
    {
      name: 'Posts',
      type: opts.cumulative ? 'line' : 'bar',
      data: points.map((p) => [p.t, p.posts]),
      itemStyle: { color: '#2563eb' },
      areaStyle: opts.cumulative ? { color: 'rgba(37,99,235,0.12)' } : undefined,
      showSymbol: false,
      barMaxWidth: 24,
      markLine: logs.length
        ? {
            symbol: 'none',
            silent: true,
            lineStyle: { color: '#64748b', type: 'dashed' },
            label: { formatter: (p: { name: string }) => p.name, color: '#475569', fontSize: 11 },
            data: logs.map((l) => ({ name: logLabel[l.action] ?? l.action, xAxis: l.createdAt })),
          }
        : undefined,
    },
  ];
  if (opts.eriName) {
    series.push({
      name: opts.eriName,
      type: 'line',
      yAxisIndex: 1,
      smooth: true,
      showSymbol: false,
      data: points.map((p) => [p.t, p.eri ?? 0]),
      itemStyle: { color: '#f59e0b' },
    });
  }
  if (opts.prediction?.length) {
    const pr = opts.prediction;
    series.push(
      { name: 'Lower bound', type: 'line', data: pr.map((p) => [p.t, p.lower]), lineStyle: { opacity: 0 }, stack: 'band', symbol: 'none', tooltip: { show: false } },
      {
        name: 'Uncertainty',
        type: 'line',
        data: pr.map((p) => [p.t, Math.max(0, p.upper - p.lower)]),
        lineStyle: { opacity: 0 },
        areaStyle: { color: 'rgba(124,58,237,0.15)' },
        stack: 'band',
        symbol: 'none',
        tooltip: { show: false },
      },
      { name: 'Prediction', type: 'line', data: pr.map((p) => [p.t, p.value]), lineStyle: { color: '#7c3aed', type: 'dashed' }, itemStyle: { color: '#7c3aed' }, symbol: 'none' },
    );
  }
  return {
    tooltip: { trigger: 'axis' },
    legend: { top: 0, textStyle: text, data: series.filter((s) => !['Lower bound', 'Uncertainty'].includes(s.name)).map((s) => s.name) },
    grid: { left: 8, right: 8, top: 32, bottom: 8, containLabel: true },
    xAxis: { type: 'time', axisLabel: text },
    yAxis: [
      { type: 'value', name: 'Posts', nameTextStyle: text, axisLabel: { ...text, formatter: (v: number) => formatMetric(v) }, splitLine: { lineStyle: { color: '#f1f5f9' } } },
      ...(opts.eriName ? [{ type: 'value', name: opts.eriName, nameTextStyle: text, axisLabel: { ...text, formatter: (v: number) => formatMetric(v) }, splitLine: { show: false } }] : []),
    ],
    series,
  };
}
