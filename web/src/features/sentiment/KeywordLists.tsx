// The Significant Keywords panel's body: the words and hashtags over-represented in positive and
// in negative posts, most significant first, each with the posts of that sentiment holding it.
// A keyword narrows the posts table to those posts.
import { useState } from 'react';
import type { SentimentKeywords, SignificantKeyword } from '../../api/queries/sentiment';
import { formatMetric } from '../../lib/numbers';
import { BUCKET_COLORS, SIDE_LABEL, type Side } from './sentiment-data';

/** Keywords shown per list before 'Show all'. */
export const KEYWORDS_SHOWN = 10;

const SIDE_COLOR: Record<Side, string> = { positive: BUCKET_COLORS.positive, negative: BUCKET_COLORS.negative };

export function KeywordLists({
  data,
  active,
  onPick,
}: {
  data: SentimentKeywords;
  /** The keyword the posts table is narrowed to, if any. */
  active: { text: string; side: Side } | null;
  onPick: (k: SignificantKeyword, side: Side) => void;
}) {
  return (
    <div className="grid gap-6 py-2 md:grid-cols-2">
      <KeywordList side="positive" items={data.positive} posts={data.positivePosts} active={active} onPick={onPick} />
      <KeywordList side="negative" items={data.negative} posts={data.negativePosts} active={active} onPick={onPick} />
    </div>
  );
}

function KeywordList({
  side,
  items,
  posts,
  active,
  onPick,
}: {
  side: Side;
  items: SignificantKeyword[];
  posts: number;
  active: { text: string; side: Side } | null;
  onPick: (k: SignificantKeyword, side: Side) => void;
}) {
  const [all, setAll] = useState(false);
  const shown = all ? items : items.slice(0, KEYWORDS_SHOWN);
  const max = Math.max(1, ...items.map((k) => k.count));
  const headingId = `keywords-${side}`;
  const word = side === 'positive' ? 'positive' : 'negative';
  return (
    <section aria-labelledby={headingId} data-keywords={side}>
      <div className="flex items-baseline justify-between gap-3 border-b border-slate-100 pb-2">
        <h3 id={headingId} className="flex items-center gap-2 text-sm font-semibold text-slate-800">
          <span className="h-2.5 w-2.5 rounded-sm" style={{ backgroundColor: SIDE_COLOR[side] }} aria-hidden="true" />
          {SIDE_LABEL[side]}
        </h3>
        <span className="text-xs text-slate-500">
          {formatMetric(posts)} {word} {posts === 1 ? 'post' : 'posts'}
        </span>
      </div>
      {items.length === 0 ? (
        <p className="py-4 text-sm text-slate-500">
          {posts > 0 ? `No word stands out in the ${word} posts.` : `No ${word} posts in this range.`}
        </p>
      ) : (
        <>
          <ol className="mt-1 space-y-0.5">
            {shown.map((k) => {
              const pressed = !!active && active.side === side && active.text.toLowerCase() === k.text.toLowerCase();
              const label = k.kind === 'hashtag' && !k.text.startsWith('#') ? `#${k.text}` : k.text;
              return (
                <li key={`${k.kind}:${k.text}`}>
                  <button
                    type="button"
                    data-keyword={k.text}
                    aria-pressed={pressed}
                    aria-label={`${label}: ${k.count} ${word} ${k.count === 1 ? 'post' : 'posts'}`}
                    title={`${k.count} of ${k.total} posts with “${label}” are ${word} (z ${k.z.toFixed(1)}). Show them in the table.`}
                    onClick={() => onPick(k, side)}
                    className={`flex w-full items-center gap-3 rounded-md px-2 py-1.5 text-left text-sm transition-colors hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600 ${pressed ? 'bg-brand-50 ring-1 ring-brand-100' : ''}`}
                  >
                    <span className={`w-36 shrink-0 truncate font-medium ${pressed ? 'text-brand-700' : 'text-slate-800'}`}>{label}</span>
                    <span className="h-1.5 min-w-0 flex-1 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
                      <span className="block h-full rounded-full" style={{ width: `${(k.count / max) * 100}%`, backgroundColor: SIDE_COLOR[side] }} />
                    </span>
                    <span className="w-12 shrink-0 text-right tabular-nums text-slate-700">{formatMetric(k.count)}</span>
                  </button>
                </li>
              );
            })}
          </ol>
          {items.length > KEYWORDS_SHOWN ? (
            <button type="button" className="mt-1 px-2 text-xs font-medium text-brand-700 hover:underline" aria-expanded={all} onClick={() => setAll((a) => !a)}>
              {all ? 'Show fewer' : `Show all ${items.length}`}
            </button>
          ) : null}
        </>
      )}
    </section>
  );
}
