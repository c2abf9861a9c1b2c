// Timeline: posts per bucket with grouping, cumulative, the ERI dropdown and tracker log markers;
// clicking a bucket opens the posts of that bucket.
import { useMemo } from 'react';
import type { TimelineAnswer } from '../../api/queries/dashboard';
import { EmptyState } from '../../components/EmptyState';
import { formatMetric } from '../../lib/numbers';
import { ERI_METRICS, GROUPINGS, type EriMetric, type Grouping } from '../../state/query-state';
import { Chart, DataTable } from './charts/Chart';
import { timelineOption } from './charts/options';
import { bucketLabel, GROUPING_LABEL, timelineSeries } from './data';

export interface PredictionPoint {
  t: number;
  value: number;
  lower: number;
  upper: number;
}

export function TimelineControls({
  grouping,
  cumulative,
  eri,
  onGrouping,
  onCumulative,
  onEri,
  prediction,
  onPrediction,
}: {
  grouping: Grouping;
  cumulative: boolean;
  eri: EriMetric | null;
  onGrouping: (g: Grouping) => void;
  onCumulative: (c: boolean) => void;
  onEri: (e: EriMetric | null) => void;
  prediction?: boolean;
  onPrediction?: (on: boolean) => void;
}) {
  const select = 'h-8 rounded-md border border-slate-300 bg-white px-2 text-xs text-slate-700';
  return (
    <div className="flex flex-wrap items-center gap-3 text-xs text-slate-600">
      <label className="flex items-center gap-1.5">
        Grouping
        <select
          aria-label="Timeline grouping"
          className={select}
          value={prediction ? 'day' : grouping}
          disabled={prediction}
          title={prediction ? 'The forecast is daily: the timeline is grouped by day while prediction is on.' : undefined}
          onChange={(e) => onGrouping(e.target.value as Grouping)}
        >
          {GROUPINGS.map((g) => (
            <option key={g} value={g}>
              {GROUPING_LABEL[g]}
            </option>
          ))}
        </select>
      </label>
      <label className="flex items-center gap-1.5">
        Metric
        <select aria-label="ERI metric" className={select} value={eri ?? ''} onChange={(e) => onEri((e.target.value || null) as EriMetric | null)}>
          <option value="">Posts only</option>
          {ERI_METRICS.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </label>
      <label className="flex items-center gap-1.5">
        <input type="checkbox" checked={cumulative} onChange={(e) => onCumulative(e.target.checked)} />
        Cumulative
      </label>
      {onPrediction ? (
        <label className="flex items-center gap-1.5">
          <input type="checkbox" checked={!!prediction} onChange={(e) => onPrediction(e.target.checked)} />
          Prediction
        </label>
      ) : null}
    </div>
  );
}

export function TimelineChart({
  data,
  eri,
  cumulative,
  onBucket,
  prediction,
}: {
  data: TimelineAnswer;
  eri: EriMetric | null;
  cumulative: boolean;
  /** Opens the posts of a bucket; without it (an embedded timeline) buckets are not clickable. */
  onBucket?: (index: number) => void;
  prediction?: PredictionPoint[];
}) {
  const points = useMemo(() => timelineSeries(data.buckets, eri, cumulative), [data.buckets, eri, cumulative]);
  const option = useMemo(
    () => timelineOption(points, { eriName: eri, logs: data.logs, cumulative, prediction }),
    [points, eri, data.logs, cumulative, prediction],
  );
  const total = data.buckets.reduce((a, b) => a + b.posts, 0);
  if (total === 0 && !prediction?.length) return <EmptyState graphic="PlatformsWithArrowUp" compact />;
  const peak = data.buckets.reduce((m, b) => (b.posts > m.posts ? b : m), data.buckets[0]);
  const label = `Timeline by ${data.grouping}: ${total} posts in ${data.buckets.length} buckets, peak ${peak.posts} at ${bucketLabel(peak.t, data.grouping)}.`;
  return (
    <Chart
      option={option}
      label={label}
      height={300}
      testId="chart-timeline"
      onClick={(p) => {
        if (onBucket && p.seriesIndex === 0 && p.dataIndex >= 0 && p.dataIndex < data.buckets.length) onBucket(p.dataIndex);
      }}
      table={
        <DataTable
          head={['Bucket', cumulative ? 'Posts (cumulative)' : 'Posts', ...(eri ? [eri] : []), ...(onBucket ? [''] : [])]}
          rows={points.map((p, i) => [
            bucketLabel(p.t, data.grouping),
            formatMetric(p.posts),
            ...(eri ? [formatMetric(p.eri)] : []),
            // The bucket is reachable without a pointer through this row.
            ...(onBucket
              ? [
                  <button key={i} type="button" className="text-brand-700 underline" onClick={() => onBucket(i)}>
                    Posts
                  </button>,
                ]
              : []),
          ])}
        />
      }
    />
  );
}
