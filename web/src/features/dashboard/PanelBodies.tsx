// The body of each dashboard panel, from its group's answer. A panel with no data shows the
// spec's empty state with its graphic.
import { useMemo, useState } from 'react';
import type { DashboardAnswers, DashboardPost, Influencer, TermCount } from '../../api/queries/dashboard';
import { EmptyState } from '../../components/EmptyState';
import { formatMetric } from '../../lib/numbers';
import { Chart, DataTable } from './charts/Chart';
import { barOption, mapOption, pieOption, SENTIMENT_COLORS } from './charts/options';
import type { PanelDef } from './panels';
import { shares } from './data';

const PLATFORM_NAMES: Record<string, string> = {
  twitter: 'Twitter',
  instagram: 'Instagram',
  youtube: 'YouTube',
  facebook: 'Facebook',
  tiktok: 'TikTok',
  news: 'News',
  blogs: 'Blogs',
  forums: 'Forums',
  bluesky: 'Bluesky',
  mastodon: 'Mastodon',
};

/** Male first (blue), then female (pink), then anything else. */
const GENDER_ORDER = ['male', 'female'];

export function isEmptyPanel(chart: string, a: Partial<DashboardAnswers>): boolean {
  switch (chart) {
    case 'posts':
      return !a.topPosts?.posts.length;
    case 'influencers':
      return !a.influencers?.byEngagement.length;
    case 'topics':
      return !a.topics?.hashtags.length && !a.topics?.keywords.length;
    case 'topPages':
      return !a.topPages?.topWebsites.length;
    case 'links':
      return !a.topPages?.topDomains.length && !a.topPages?.topLinks.length;
    case 'sentiment':
      return !a.sentiments || a.sentiments.positive + a.sentiments.neutral + a.sentiments.negative === 0;
    case 'shareOfVoice':
      return !a.sentiments?.shareOfVoice.some((s) => s.count > 0);
    case 'viewer_sentiment':
      return !a.viewerSentiments || a.viewerSentiments.likes + a.viewerSentiments.dislikes === 0;
    case 'geography':
      return !a.locations?.countries.length;
    case 'demographics':
      return !a.genders?.items.length;
    case 'sources':
      return !a.devices?.items.length;
    case 'post_type':
      return !a.postTypes?.items.length;
    default:
      return true;
  }
}

function termTable(items: TermCount[], head: [string, string]) {
  return <DataTable head={head} rows={items.map((i) => [i.term, i.count])} />;
}

function PieWithTable({ parts, colors, label, testId }: { parts: { name: string; value: number }[]; colors?: string[]; label: string; testId: string }) {
  const option = useMemo(() => pieOption(parts, colors), [parts, colors]);
  const pct = shares(parts.map((p) => p.value));
  const summary = `${label}: ${parts.map((p, i) => `${p.name} ${pct[i]}%`).join(', ')}`;
  return (
    <Chart
      option={option}
      label={summary}
      testId={testId}
      table={<DataTable head={['Name', 'Posts', 'Share']} rows={parts.map((p, i) => [p.name, p.value, `${pct[i]}%`])} />}
    />
  );
}

function Bars({ items, label, testId, color }: { items: TermCount[]; label: string; testId: string; color?: string }) {
  const option = useMemo(() => barOption(items, color), [items, color]);
  const summary = `${label}: ${items.slice(0, 3).map((i) => `${i.term} ${i.count}`).join(', ')}`;
  return <Chart option={option} label={summary} testId={testId} height={Math.max(160, items.length * 26 + 24)} table={termTable(items, ['Name', 'Posts'])} />;
}

export function PanelBody({
  panel,
  answers,
  onTopic,
}: {
  panel: PanelDef;
  answers: Partial<DashboardAnswers>;
  onTopic: (kind: 'hashtag' | 'keyword', term: string) => void;
}) {
  if (isEmptyPanel(panel.chart, answers)) {
    if (panel.chart === 'shareOfVoice' && answers.sentiments && !answers.sentiments.shareOfVoice.length) {
      return <EmptyState graphic={panel.graphic} compact title="No subtrackers." body="Add subtrackers to this tracker to compare their share of voice." />;
    }
    return <EmptyState graphic={panel.graphic} compact />;
  }
  const a = answers;
  switch (panel.chart) {
    case 'posts':
      return <TopPosts posts={a.topPosts!.posts} />;
    case 'influencers':
      return <Influencers data={a.influencers!} />;
    case 'topics':
      return <Topics data={a.topics!} onTopic={onTopic} />;
    case 'topPages':
      return <Bars items={a.topPages!.topWebsites} label="Top websites" testId="chart-top-websites" color="#0891b2" />;
    case 'links':
      return <Links data={a.topPages!} />;
    case 'sentiment': {
      const s = a.sentiments!;
      const parts = [
        { name: 'Positive', value: s.positive },
        { name: 'Neutral', value: s.neutral },
        { name: 'Negative', value: s.negative },
      ];
      return <PieWithTable parts={parts} colors={Object.values(SENTIMENT_COLORS)} label="Sentiment" testId="chart-sentiment" />;
    }
    case 'shareOfVoice':
      return <PieWithTable parts={a.sentiments!.shareOfVoice.map((s) => ({ name: s.term, value: s.count }))} label="Share of voice" testId="chart-share-of-voice" />;
    case 'viewer_sentiment': {
      const v = a.viewerSentiments!;
      return (
        <PieWithTable
          parts={[
            { name: 'Likes', value: v.likes },
            { name: 'Dislikes', value: v.dislikes },
          ]}
          colors={['#16a34a', '#dc2626']}
          label="Video likes and dislikes"
          testId="chart-viewer-sentiment"
        />
      );
    }
    case 'geography':
      return <Location data={a.locations!} />;
    case 'demographics':
      return (
        <PieWithTable
          parts={[...a.genders!.items]
            .sort((x, y) => GENDER_ORDER.indexOf(x.term) - GENDER_ORDER.indexOf(y.term))
            .map((g) => ({ name: g.term === 'male' ? 'Male' : g.term === 'female' ? 'Female' : g.term, value: g.count }))}
          colors={['#2563eb', '#db2777', '#94a3b8']}
          label="Gender"
          testId="chart-gender"
        />
      );
    case 'sources':
      return <Bars items={a.devices!.items} label="Top devices and apps" testId="chart-devices" color="#7c3aed" />;
    case 'post_type':
      return (
        <PieWithTable
          parts={a.postTypes!.items.map((p) => ({ name: p.term.charAt(0).toUpperCase() + p.term.slice(1), value: p.count }))}
          label="Post types"
          testId="chart-post-types"
        />
      );
    default:
      return <EmptyState graphic={panel.graphic} compact />;
  }
}

function Avatar({ src, name }: { src: string | null; name: string }) {
  if (src && /^https?:\/\//.test(src)) return <img src={src} alt="" className="h-8 w-8 shrink-0 rounded-full bg-slate-100 object-cover" loading="lazy" />;
  return (
    <span aria-hidden className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-slate-200 text-xs font-semibold text-slate-600">
      {name.slice(0, 1).toUpperCase()}
    </span>
  );
}

export function PostRow({ p, maxChars }: { p: DashboardPost; maxChars?: number }) {
  const text = maxChars && Array.from(p.text).length > maxChars ? Array.from(p.text).slice(0, maxChars).join('') + '…' : p.text;
  const safeUrl = p.url && /^https?:\/\//.test(p.url) ? p.url : null;
  return (
    <li className="flex gap-3 py-2.5">
      <Avatar src={p.authorAvatar} name={p.authorName || p.authorUsername} />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-baseline gap-x-2 text-xs text-slate-500">
          <span className="font-semibold text-slate-800">{p.authorName || p.authorUsername}</span>
          {p.authorUsername ? <span>@{p.authorUsername}</span> : null}
          <span>· {PLATFORM_NAMES[p.platform] ?? p.platform}</span>
          <time dateTime={new Date(p.createdAt).toISOString()}>· {new Date(p.createdAt).toLocaleString()}</time>
        </div>
        {p.title ? <p className="mt-0.5 text-sm font-medium text-slate-800">{p.title}</p> : null}
        <p className="mt-0.5 whitespace-pre-line break-words text-sm text-slate-700">{text}</p>
        <div className="mt-1 flex gap-3 text-xs text-slate-500">
          <span>Engagement {formatMetric(p.engagement)}</span>
          <span>Likes {formatMetric(p.likes)}</span>
          <span>Shares {formatMetric(p.shares)}</span>
          {safeUrl ? (
            <a href={safeUrl} target="_blank" rel="noopener noreferrer" className="text-brand-700 hover:underline">
              View post
            </a>
          ) : null}
        </div>
      </div>
    </li>
  );
}

function TopPosts({ posts }: { posts: DashboardPost[] }) {
  return (
    <ol className="max-h-[28rem] divide-y divide-slate-100 overflow-y-auto" aria-label="Top posts by engagement">
      {posts.map((p) => (
        <PostRow key={p.id} p={p} maxChars={280} />
      ))}
    </ol>
  );
}

function Toggle<T extends string>({ value, options, onChange, label }: { value: T; options: [T, string][]; onChange: (v: T) => void; label: string }) {
  return (
    <div role="group" aria-label={label} className="inline-flex rounded-md border border-slate-200 p-0.5 text-xs">
      {options.map(([v, text]) => (
        <button
          key={v}
          type="button"
          aria-pressed={value === v}
          onClick={() => onChange(v)}
          className={`rounded px-2 py-1 ${value === v ? 'bg-slate-800 text-white' : 'text-slate-600 hover:bg-slate-100'}`}
        >
          {text}
        </button>
      ))}
    </div>
  );
}

function Influencers({ data }: { data: DashboardAnswers['influencers'] }) {
  const [by, setBy] = useState<'engagement' | 'posts'>('engagement');
  const list: Influencer[] = by === 'engagement' ? data.byEngagement : data.byPosts;
  return (
    <div>
      <Toggle
        label="Rank influential users by"
        value={by}
        onChange={setBy}
        options={[
          ['engagement', 'By Engagement'],
          ['posts', 'By Posts'],
        ]}
      />
      <table className="mt-2 w-full text-left text-sm">
        <thead className="text-xs text-slate-500">
          <tr>
            <th scope="col" className="py-1 font-medium">User</th>
            <th scope="col" className="py-1 text-right font-medium">Posts</th>
            <th scope="col" className="py-1 text-right font-medium">Engagement</th>
            <th scope="col" className="py-1 text-right font-medium">Followers</th>
          </tr>
        </thead>
        <tbody>
          {list.map((u) => (
            <tr key={`${u.platform}:${u.username}`} className="border-t border-slate-100">
              <td className="py-1.5">
                <div className="flex items-center gap-2">
                  <Avatar src={u.avatar} name={u.name || u.username} />
                  <div className="min-w-0">
                    <div className="truncate font-medium text-slate-800">{u.name || u.username}</div>
                    <div className="truncate text-xs text-slate-500">
                      @{u.username} · {PLATFORM_NAMES[u.platform] ?? u.platform}
                    </div>
                  </div>
                </div>
              </td>
              <td className="py-1.5 text-right tabular-nums">{formatMetric(u.posts)}</td>
              <td className="py-1.5 text-right tabular-nums">{formatMetric(u.engagement)}</td>
              <td className="py-1.5 text-right tabular-nums">{formatMetric(u.followers)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function TermBars({ items, kind, onTopic, title }: { items: TermCount[]; kind: 'hashtag' | 'keyword'; onTopic: (k: 'hashtag' | 'keyword', t: string) => void; title: string }) {
  const max = Math.max(1, ...items.map((i) => i.count));
  return (
    <div>
      <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</h3>
      {items.length === 0 ? (
        <p className="text-xs text-slate-500">None in this range.</p>
      ) : (
        <ul className="space-y-1">
          {items.map((i) => (
            <li key={i.term}>
              <button
                type="button"
                onClick={() => onTopic(kind, i.term)}
                className="group flex w-full items-center gap-2 rounded px-1 py-0.5 text-left text-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600"
                aria-label={`${i.term}: ${i.count} posts. Show posts`}
              >
                <span className="w-32 shrink-0 truncate text-slate-800 group-hover:text-brand-700">{i.term}</span>
                <span className="h-3 flex-1 rounded bg-slate-100">
                  <span className="block h-3 rounded bg-brand-500" style={{ width: `${(i.count / max) * 100}%`, backgroundColor: kind === 'hashtag' ? '#2563eb' : '#0891b2' }} />
                </span>
                <span className="w-12 shrink-0 text-right text-xs tabular-nums text-slate-600">{formatMetric(i.count)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Topics({ data, onTopic }: { data: DashboardAnswers['topics']; onTopic: (k: 'hashtag' | 'keyword', t: string) => void }) {
  return (
    <div className="grid gap-6 md:grid-cols-2">
      <TermBars items={data.hashtags} kind="hashtag" onTopic={onTopic} title="Hashtags" />
      <TermBars items={data.keywords} kind="keyword" onTopic={onTopic} title="Keywords" />
    </div>
  );
}

function Links({ data }: { data: DashboardAnswers['topPages'] }) {
  const [view, setView] = useState<'domains' | 'links'>('domains');
  return (
    <div>
      <Toggle
        label="Show"
        value={view}
        onChange={setView}
        options={[
          ['domains', 'Domains'],
          ['links', 'Links'],
        ]}
      />
      {view === 'domains' ? (
        <Bars items={data.topDomains} label="Most linked domains" testId="chart-linked-domains" color="#16a34a" />
      ) : (
        <ol className="mt-2 space-y-1 text-sm">
          {data.topLinks.map((l) => (
            <li key={l.term} className="flex justify-between gap-2">
              <span className="truncate text-slate-700" title={l.term}>{l.term}</span>
              <span className="tabular-nums text-slate-500">{formatMetric(l.count)}</span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

/** The English name of an alpha-2 code as the browser knows it (short forms), else the server's. */
function countryName(code: string, fallback: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' }).of(code) ?? fallback;
  } catch {
    return fallback;
  }
}

function Location({ data: raw }: { data: DashboardAnswers['locations'] }) {
  const data = useMemo(
    () => ({ ...raw, countries: raw.countries.map((c) => ({ ...c, name: countryName(c.country, c.name) })) }),
    [raw],
  );
  const option = useMemo(() => mapOption(data.countries), [data.countries]);
  const top = data.countries.slice(0, 10);
  const total = data.countries.reduce((a, c) => a + c.count, 0);
  return (
    <div className="flex flex-col gap-3">
      <Chart
        option={option}
        needsWorld
        height={260}
        testId="chart-location"
        label={`Posts by country: ${top.slice(0, 3).map((c) => `${c.name} ${c.count}`).join(', ')}`}
        table={<DataTable head={['Country', 'Posts']} rows={data.countries.map((c) => [c.name, c.count])} />}
      />
      <div>
        <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Countries</h3>
        <ol className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2" aria-label="Countries by posts">
          {top.map((c) => (
            <li key={c.country} className="flex justify-between gap-2">
              <span className="truncate text-slate-700">{c.name}</span>
              <span className="tabular-nums text-slate-500">
                {formatMetric(c.count)} <span className="text-xs">({total ? Math.round((c.count / total) * 1000) / 10 : 0}%)</span>
              </span>
            </li>
          ))}
        </ol>
        {data.states.length ? (
          <>
            <h3 className="mb-1 mt-3 text-xs font-semibold uppercase tracking-wide text-slate-500">States</h3>
            <ol className="space-y-1 text-sm" aria-label="States by posts">
              {data.states.slice(0, 10).map((s) => (
                <li key={s.state} className="flex justify-between gap-2">
                  <span className="truncate text-slate-700">
                    {s.name} <span className="text-xs text-slate-500">{countryName(s.country, s.country)}</span>
                  </span>
                  <span className="tabular-nums text-slate-500">{formatMetric(s.count)}</span>
                </li>
              ))}
            </ol>
          </>
        ) : null}
      </div>
    </div>
  );
}
