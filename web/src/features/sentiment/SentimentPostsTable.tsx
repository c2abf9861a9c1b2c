// The sentiment page's posts table: date, author, text, engagement, reach and sentiment label;
// every column header sorts (aria-sort), a post's text opens its detail side view.
import { SortButton } from '../../components/SortButton';
import type { PostItem } from '../../api/queries/posts';
import { formatMetric } from '../../lib/numbers';
import { platformInfo } from '../../lib/platforms';
import type { SortDirection } from '../../state/query-state';
import { authorHandle, authorName, platformCode, postTime, shortCaption } from '../posts/format';
import { Avatar, SentimentBadge } from '../posts/PostDetail';
import { ariaSort, COLUMN_LABEL, POST_COLUMNS, type PostColumn } from './sentiment-data';

type TableSort = { column: PostColumn; direction: SortDirection };

const WIDTH: Record<PostColumn, string> = {
  date: 'w-44',
  user: 'w-44',
  postText: '',
  engagements: 'w-28',
  reach: 'w-20',
  sentimentScore: 'w-36',
};
const RIGHT: PostColumn[] = ['engagements', 'reach'];

function PlatformBadge({ platform }: { platform: string }) {
  const info = platformInfo(platformCode(platform));
  return (
    <span className={`inline-flex h-4 min-w-4 shrink-0 items-center justify-center rounded px-1 text-[9px] font-bold ${info.badge}`} title={info.label}>
      {info.short}
      <span className="sr-only"> ({info.label})</span>
    </span>
  );
}

function SortHeader({ column, sort, onSort }: { column: PostColumn; sort: TableSort; onSort: (c: PostColumn) => void }) {
  return <SortButton label={COLUMN_LABEL[column]} state={ariaSort(sort, column)} onClick={() => onSort(column)} align={RIGHT.includes(column) ? 'right' : 'left'} />;
}

export function SentimentPostsTable({
  items,
  sort,
  onSort,
  onOpen,
}: {
  items: PostItem[];
  sort: TableSort;
  onSort: (c: PostColumn) => void;
  onOpen: (item: PostItem) => void;
}) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[960px] table-fixed text-left text-sm" data-testid="sentiment-posts-table">
        <thead className="border-b border-slate-200 bg-slate-50 text-[11px] font-semibold text-slate-500">
          <tr>
            {POST_COLUMNS.map((c) => (
              <th key={c} scope="col" aria-sort={ariaSort(sort, c)} className={`px-3 py-2.5 ${WIDTH[c]} ${RIGHT.includes(c) ? 'text-right' : ''}`}>
                <SortHeader column={c} sort={sort} onSort={onSort} />
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.key} className="border-b border-slate-100 align-top last:border-0 hover:bg-slate-50" data-post={item.key}>
              <td className="whitespace-nowrap px-3 py-3 text-xs text-slate-600">{postTime(item.post)}</td>
              <td className="px-3 py-3">
                <div className="flex items-center gap-2">
                  <Avatar item={item} size="h-8 w-8" />
                  <div className="min-w-0">
                    <div className="truncate font-medium text-slate-900" data-testid="post-author">
                      {authorName(item)}
                    </div>
                    <div className="flex items-center gap-1 text-xs text-slate-500">
                      <PlatformBadge platform={item.post.platform} />
                      <span className="truncate">{authorHandle(item)}</span>
                    </div>
                  </div>
                </div>
              </td>
              <td className="px-3 py-3">
                <button
                  type="button"
                  className="block w-full break-words text-left text-slate-800 hover:text-brand-700 focus-visible:outline-2 focus-visible:outline-brand-600"
                  onClick={() => onOpen(item)}
                  data-testid="post-text"
                >
                  {shortCaption(item.post)}
                </button>
              </td>
              <td className="px-3 py-3 text-right tabular-nums text-slate-800">{formatMetric(item.engagement)}</td>
              <td className="px-3 py-3 text-right tabular-nums text-slate-800">{formatMetric(item.reach)}</td>
              <td className="px-3 py-3" data-testid="post-sentiment">
                <SentimentBadge level={item.sentimentBucket} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function PostsTableSkeleton() {
  return (
    <div className="space-y-2 py-3" aria-hidden="true">
      {Array.from({ length: 6 }, (_, i) => (
        <div key={i} className="h-9 animate-pulse rounded bg-slate-50" />
      ))}
    </div>
  );
}
