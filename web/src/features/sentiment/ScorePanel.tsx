// The Sentiment Score panel's body: the score (-1 to +1, coloured by its tone) on a gauge, the
// posts counted, the buckets' shares as one bar, and the five buckets with counts and shares. A
// bucket narrows the posts table to its posts.
import type { SentimentOverview } from '../../api/queries/sentiment';
import { formatMetric } from '../../lib/numbers';
import { SENTIMENT_BUCKETS, type SentimentBucket } from '../../state/query-state';
import {
  BUCKET_COLORS,
  bucketShares,
  COUNT_KEY,
  formatScore,
  formatShare,
  scoreTone,
  TONE_CLASS,
  TONE_TEXT,
} from './sentiment-data';

export function ScoreBody({
  data,
  labels,
  activeBucket,
  onBucket,
}: {
  data: SentimentOverview;
  labels: Record<SentimentBucket, string>;
  /** The bucket the posts table shows alone, if any. */
  activeBucket: SentimentBucket | null;
  onBucket: (b: SentimentBucket) => void;
}) {
  const tone = scoreTone(data.score);
  const shares = bucketShares(data.counts);
  // The marker's place on the gauge, 0% at -1 and 100% at +1.
  const at = Math.min(100, Math.max(0, ((data.score + 1) / 2) * 100));
  return (
    <div className="space-y-4 py-2">
      <div className="flex items-end justify-between gap-4">
        <div>
          <p className={`text-4xl font-semibold tabular-nums ${data.total ? TONE_CLASS[tone] : 'text-slate-400'}`} data-testid="sentiment-score" data-tone={tone}>
            {formatScore(data.score)}
          </p>
          <p className="mt-1 text-sm text-slate-500">{data.total ? TONE_TEXT[tone] : 'No posts to score'}</p>
        </div>
        <div className="text-right">
          <p className="text-2xl font-semibold tabular-nums text-slate-900" data-testid="sentiment-total">
            {formatMetric(data.total)}
          </p>
          <p className="text-xs font-medium uppercase tracking-wide text-slate-500">{data.total === 1 ? 'Post' : 'Posts'}</p>
        </div>
      </div>
      <div aria-hidden="true">
        <div className="relative h-2 rounded-full bg-gradient-to-r from-red-500 via-slate-300 to-green-500">
          {data.total ? (
            <span className="absolute top-1/2 h-4 w-4 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-white bg-slate-900 shadow" style={{ left: `${at}%` }} />
          ) : null}
        </div>
        <div className="mt-1 flex justify-between text-[11px] text-slate-400">
          <span>-1</span>
          <span>0</span>
          <span>+1</span>
        </div>
      </div>
      {data.total ? (
        <div className="flex h-2.5 overflow-hidden rounded-full bg-slate-100" aria-hidden="true" data-testid="sentiment-distribution">
          {SENTIMENT_BUCKETS.map((b) =>
            shares[b] > 0 ? <span key={b} className="h-full" style={{ width: `${shares[b]}%`, backgroundColor: BUCKET_COLORS[b] }} /> : null,
          )}
        </div>
      ) : null}
      <ul className="space-y-0.5" aria-label="Posts per sentiment">
        {SENTIMENT_BUCKETS.map((b) => {
          const n = data.counts[COUNT_KEY[b]];
          const active = activeBucket === b;
          return (
            <li key={b}>
              <button
                type="button"
                data-bucket={b}
                aria-pressed={active}
                title={`Show the ${labels[b].toLowerCase()} posts in the table`}
                disabled={!n && !active}
                onClick={() => onBucket(b)}
                className={`flex w-full items-center gap-3 rounded-md px-2 py-1.5 text-left text-sm transition-colors hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600 disabled:cursor-default disabled:hover:bg-transparent ${active ? 'bg-brand-50 ring-1 ring-brand-100' : ''}`}
              >
                <span className="h-2.5 w-2.5 shrink-0 rounded-sm" style={{ backgroundColor: BUCKET_COLORS[b] }} aria-hidden="true" />
                <span className="min-w-0 flex-1 truncate text-slate-700">{labels[b]}</span>
                <span className="w-12 shrink-0 text-right font-medium tabular-nums text-slate-900" data-testid={`count-${b}`}>
                  {formatMetric(n)}
                </span>
                <span className="w-12 shrink-0 text-right tabular-nums text-slate-500" data-testid={`share-${b}`}>
                  {formatShare(shares[b])}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

export function ScoreSkeleton() {
  return (
    <div className="space-y-4 py-2" aria-hidden="true">
      <div className="flex items-end justify-between">
        <div className="h-10 w-28 animate-pulse rounded bg-slate-100" />
        <div className="h-8 w-16 animate-pulse rounded bg-slate-100" />
      </div>
      <div className="h-2 animate-pulse rounded-full bg-slate-100" />
      {SENTIMENT_BUCKETS.map((b) => (
        <div key={b} className="h-6 animate-pulse rounded bg-slate-50" />
      ))}
    </div>
  );
}
