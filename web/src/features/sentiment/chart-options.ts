// The ECharts option of Sentiment Over Time (pure: data in, option out): the five buckets as
// stacked bars on a category axis of the answer's buckets, negative at the bottom, positive on
// top, with a legend, an axis tooltip and the brush that picks a period.
import type { SentimentPoint } from '../../api/queries/sentiment';
import { formatMetric } from '../../lib/numbers';
import { escapeHtml } from '../dashboard/charts/options';
import type { SentimentBucket } from '../../state/query-state';
import { BUCKET_COLORS, bucketAxisLabel, bucketTitle, COUNT_KEY } from './sentiment-data';

const text = { color: '#334155', fontSize: 12 };

/** Bottom to top of each stacked bar. */
export const STACK_ORDER: SentimentBucket[] = ['negative', 'slight_negative', 'neutral', 'slight_positive', 'positive'];
/** The legend reads from positive to negative. */
export const LEGEND_ORDER: SentimentBucket[] = ['positive', 'slight_positive', 'neutral', 'slight_negative', 'negative'];

/** Brush settings: one period at a time, across the time axis. */
export const BRUSH = { brushType: 'lineX', brushMode: 'single' } as const;

export function overTimeOption(points: SentimentPoint[], grouping: string, labels: Record<SentimentBucket, string>) {
  const names = Object.fromEntries(LEGEND_ORDER.map((b) => [labels[b], b])) as Record<string, SentimentBucket>;
  return {
    animationDuration: 300,
    legend: { top: 0, textStyle: text, itemWidth: 12, itemHeight: 12, data: LEGEND_ORDER.map((b) => labels[b]) },
    grid: { left: 8, right: 12, top: 36, bottom: 8, containLabel: true },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      formatter: (params: { dataIndex: number; seriesName: string; value: number; marker: string }[]) => {
        const list = Array.isArray(params) ? params : [params];
        const p = points[list[0]?.dataIndex ?? 0];
        if (!p) return '';
        const rows = [...list]
          .sort((a, b) => LEGEND_ORDER.indexOf(names[a.seriesName]) - LEGEND_ORDER.indexOf(names[b.seriesName]))
          .map((s) => `${s.marker}${escapeHtml(s.seriesName)}: <b>${formatMetric(s.value)}</b>`);
        const total = STACK_ORDER.reduce((a, b) => a + p[COUNT_KEY[b]], 0);
        return [`<b>${escapeHtml(bucketTitle(p.t, grouping))}</b>`, ...rows, `Total: <b>${formatMetric(total)}</b>`].join('<br/>');
      },
    },
    xAxis: {
      type: 'category',
      data: points.map((p) => bucketAxisLabel(p.t, grouping)),
      axisLabel: { ...text, hideOverlap: true },
      axisTick: { alignWithLabel: true },
    },
    yAxis: {
      type: 'value',
      minInterval: 1,
      axisLabel: { ...text, formatter: (v: number) => formatMetric(v) },
      splitLine: { lineStyle: { color: '#f1f5f9' } },
    },
    brush: {
      xAxisIndex: 0,
      ...BRUSH,
      transformable: false,
      throttleType: 'debounce',
      throttleDelay: 0,
      brushStyle: { borderWidth: 1, color: 'rgba(37,99,235,0.12)', borderColor: 'rgba(37,99,235,0.6)' },
      outOfBrush: { colorAlpha: 0.3 },
    },
    series: STACK_ORDER.map((b) => ({
      name: labels[b],
      type: 'bar',
      stack: 'sentiment',
      barMaxWidth: 28,
      itemStyle: { color: BUCKET_COLORS[b] },
      emphasis: { focus: 'series' },
      data: points.map((p) => p[COUNT_KEY[b]]),
    })),
  };
}
