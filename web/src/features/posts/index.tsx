// Posts page: sub-header filters bound to the URL, the list (table or card view) and its empty state.
import * as Popover from '@radix-ui/react-popover';
import { EmptyState, PREVIEW_BODY, PREVIEW_TITLE } from '../../components/EmptyState';
import { IconChevronDown, IconGrid, IconList, IconRefresh } from '../../components/icons';
import { controlClass, SubHeader } from '../../components/Panel';
import { SearchInput } from '../../components/SearchInput';
import type { PlatformCode } from '../../api/types';
import {
  resetPostFilters,
  SENTIMENT_BUCKETS,
  setExcludeRT,
  setIgStoryOnly,
  setSearch,
  setView,
  toggleSentiment,
  type SentimentBucket,
} from '../../state/query-state';
import { useShell } from '../shell/context';

const LOCATION_PLATFORMS: PlatformCode[] = ['twt', 'fb', 'news', 'blogs', 'forums'];

export function postsSearchPlaceholder(selected: PlatformCode[]): string {
  return selected.some((p) => LOCATION_PLATFORMS.includes(p)) ? 'Search Posts, Users, Locations' : 'Search Posts, Users';
}

export const SENTIMENT_LABELS: Record<SentimentBucket, string> = {
  positive: 'Positive',
  slight_positive: 'Slightly Positive',
  neutral: 'Neutral',
  slight_negative: 'Slightly Negative',
  negative: 'Negative',
};

export default function PostsPage() {
  const { tracker, query, update, platforms, access } = useShell();
  const locked = tracker.isPreviewMode;
  const onlyYoutube = platforms.length === 1 && platforms[0] === 'yt';
  return (
    <div>
      <SubHeader label="Post filters">
        <SearchInput
          value={query.search}
          onChange={(v) => update(setSearch(v), { replace: true })}
          placeholder={postsSearchPlaceholder(platforms)}
          disabled={locked}
        />
        {!onlyYoutube ? <SentimentDropdown disabled={locked} /> : null}
        {platforms.includes('twt') ? (
          <label className="inline-flex items-center gap-2 text-sm text-slate-700">
            <input type="checkbox" className="h-4 w-4 accent-brand-600" checked={query.excludeRT} disabled={locked} onChange={(e) => update(setExcludeRT(e.target.checked))} />
            Exclude Retweets
          </label>
        ) : null}
        {platforms.includes('ig') ? (
          <label className="inline-flex items-center gap-2 text-sm text-slate-700">
            <input type="checkbox" className="h-4 w-4 accent-brand-600" checked={query.igStoryOnly} disabled={locked} onChange={(e) => update(setIgStoryOnly(e.target.checked))} />
            Filter by Stories
          </label>
        ) : null}
        <button type="button" className={controlClass} disabled={locked} onClick={() => update(resetPostFilters)}>
          <IconRefresh size={14} />
          Reset
        </button>
        <div className="ml-auto flex items-center gap-2">
          {access.canManage && !access.embed ? (
            <>
              <button type="button" className={controlClass} disabled title="Embedding arrives with the posts list">
                Embed
              </button>
              <button type="button" className={controlClass} disabled title="Adding posts arrives with the posts list">
                Add Posts
              </button>
              <button type="button" className={controlClass} disabled title="Exports arrive with the posts list">
                Export
                <IconChevronDown size={14} />
              </button>
            </>
          ) : null}
          <div className="inline-flex overflow-hidden rounded-md border border-slate-300 shadow-sm" role="group" aria-label="Posts view">
            <button
              type="button"
              title="Table view for posts"
              aria-label="Table view for posts"
              aria-pressed={query.view === 'list'}
              disabled={locked}
              onClick={() => update(setView('list'))}
              className={`flex h-9 w-10 items-center justify-center focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600 ${query.view === 'list' ? 'bg-brand-50 text-brand-700' : 'bg-white text-slate-500 hover:text-slate-800'}`}
            >
              <IconList size={16} />
            </button>
            <button
              type="button"
              title="Card view for posts"
              aria-label="Card view for posts"
              aria-pressed={query.view === 'card'}
              disabled={locked}
              onClick={() => update(setView('card'))}
              className={`flex h-9 w-10 items-center justify-center border-l border-slate-300 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600 ${query.view === 'card' ? 'bg-brand-50 text-brand-700' : 'bg-white text-slate-500 hover:text-slate-800'}`}
            >
              <IconGrid size={16} />
            </button>
          </div>
        </div>
      </SubHeader>
      <div className="p-6">
        <div className="rounded-xl border border-slate-200 bg-white shadow-sm">
          {query.view === 'list' && !locked ? (
            <div className="grid grid-cols-[2fr_4fr_1fr_1fr_1fr] gap-4 border-b border-slate-100 px-4 py-3 text-xs font-semibold uppercase tracking-wide text-slate-500" aria-hidden="true">
              <span>User</span>
              <span>Post</span>
              <span>Date</span>
              <span>Engagement</span>
              <span>Sentiment</span>
            </div>
          ) : null}
          {locked ? (
            <EmptyState graphic="Loading" title={PREVIEW_TITLE} body={PREVIEW_BODY} />
          ) : (
            <EmptyState graphic="BullhornHashtagSpeechBubble" />
          )}
        </div>
      </div>
    </div>
  );
}

function SentimentDropdown({ disabled }: { disabled: boolean }) {
  const { query, update } = useShell();
  const count = query.sentiment.length;
  return (
    <Popover.Root>
      <Popover.Trigger className={controlClass} disabled={disabled} aria-label={count ? `Sentiment (${count} selected)` : 'Sentiment'}>
        Sentiment
        {count ? <span className="rounded-full bg-brand-600 px-1.5 text-xs font-semibold text-white">{count}</span> : null}
        <IconChevronDown size={14} />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content align="start" sideOffset={6} className="z-50 w-56 rounded-lg border border-slate-200 bg-white p-2 shadow-lg">
          <fieldset>
            <legend className="px-2 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Sentiment</legend>
            {SENTIMENT_BUCKETS.map((b) => (
              <label key={b} className="flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-sm text-slate-700 hover:bg-slate-50">
                <input type="checkbox" className="h-4 w-4 accent-brand-600" checked={query.sentiment.includes(b)} onChange={() => update(toggleSentiment(b))} />
                {SENTIMENT_LABELS[b]}
              </label>
            ))}
          </fieldset>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
