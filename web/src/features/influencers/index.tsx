// Influencers page: 'Filter Accounts and Bios' search, the Settings toggle with the advanced
// filters (bound to the URL) and the ranked list in its empty state.
import { useState } from 'react';
import { EmptyState } from '../../components/EmptyState';
import { IconChevronDown, IconSliders } from '../../components/icons';
import { controlClass, SubHeader } from '../../components/Panel';
import { SearchInput } from '../../components/SearchInput';
import {
  INFLUENCER_COUNT_FILTERS,
  setInfluencerFilters,
  setSearch,
  type CountOp,
  type InfluencerCountKey,
} from '../../state/query-state';
import { useShell } from '../shell/context';

const COUNT_LABELS: Record<InfluencerCountKey, string> = {
  followers: 'Followers',
  engagement: 'Engagement',
  posts: 'Posts',
  impressions: 'Impressions',
};

export default function InfluencersPage() {
  const { query, update, access } = useShell();
  const [settingsOpen, setSettingsOpen] = useState(
    () => !!(query.influencer.bio || query.influencer.location || INFLUENCER_COUNT_FILTERS.some((k) => query.influencer[k])),
  );
  return (
    <div>
      <SubHeader label="Influencer filters">
        <SearchInput value={query.search} onChange={(v) => update(setSearch(v), { replace: true })} placeholder="Filter Accounts and Bios" />
        <button type="button" className={controlClass} aria-expanded={settingsOpen} aria-controls="influencer-settings" onClick={() => setSettingsOpen((o) => !o)}>
          <IconSliders size={14} />
          {settingsOpen ? 'Hide Settings' : 'Settings'}
        </button>
        {!access.embed ? (
          <button type="button" className={`${controlClass} ml-auto`} disabled title="No influencers to export yet">
            Export
            <IconChevronDown size={14} />
          </button>
        ) : null}
      </SubHeader>
      {settingsOpen ? <AdvancedFilters /> : null}
      <div className="p-6">
        <div className="rounded-xl border border-slate-200 bg-white shadow-sm">
          <div className="grid grid-cols-[3fr_1fr_1fr_1fr_1fr_1fr] gap-4 border-b border-slate-100 px-4 py-3 text-xs font-semibold uppercase tracking-wide text-slate-500" aria-hidden="true">
            <span>Account</span>
            <span>Posts</span>
            <span>Followers</span>
            <span>Reach</span>
            <span>Engagement</span>
            <span>Eng. Rate</span>
          </div>
          <EmptyState graphic="PlatformsWithArrowUp" />
        </div>
      </div>
    </div>
  );
}

function AdvancedFilters() {
  const { query, update } = useShell();
  const f = query.influencer;
  const input = 'h-9 w-full rounded-md border border-slate-300 bg-white px-3 text-sm focus-visible:outline-2 focus-visible:outline-brand-600';
  return (
    <section id="influencer-settings" aria-label="Advanced filters" className="grid gap-4 border-b border-slate-200 bg-slate-50 px-6 py-4 sm:grid-cols-2 xl:grid-cols-3">
      <label className="text-sm text-slate-700">
        <span className="mb-1 block font-medium">Bio contains</span>
        <input className={input} defaultValue={f.bio} onBlur={(e) => e.target.value !== f.bio && update(setInfluencerFilters({ bio: e.target.value.trim() }))} />
      </label>
      <label className="text-sm text-slate-700">
        <span className="mb-1 block font-medium">Location</span>
        <input className={input} defaultValue={f.location} onBlur={(e) => e.target.value !== f.location && update(setInfluencerFilters({ location: e.target.value.trim() }))} />
      </label>
      {INFLUENCER_COUNT_FILTERS.map((k) => {
        const cur = f[k];
        return (
          <fieldset key={k} className="text-sm text-slate-700">
            <legend className="mb-1 font-medium">{COUNT_LABELS[k]}</legend>
            <div className="flex gap-2">
              <select
                aria-label={`${COUNT_LABELS[k]} operator`}
                className="h-9 rounded-md border border-slate-300 bg-white px-2 text-sm focus-visible:outline-2 focus-visible:outline-brand-600"
                value={cur?.op ?? 'greater'}
                onChange={(e) => cur && update(setInfluencerFilters({ [k]: { count: cur.count, op: e.target.value as CountOp } }))}
              >
                <option value="greater">Greater than</option>
                <option value="lesser">Less than</option>
              </select>
              <input
                aria-label={`${COUNT_LABELS[k]} count`}
                type="number"
                min={0}
                className={input}
                defaultValue={cur?.count ?? ''}
                onBlur={(e) => {
                  const v = e.target.value.trim();
                  const next = v === '' ? null : { count: Math.max(0, Math.floor(Number(v))), op: cur?.op ?? ('greater' as CountOp) };
                  if (JSON.stringify(next) !== JSON.stringify(cur)) update(setInfluencerFilters({ [k]: next }));
                }}
              />
            </div>
          </fieldset>
        );
      })}
    </section>
  );
}
