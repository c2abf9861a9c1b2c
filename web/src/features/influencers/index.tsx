// Influencers page: the tracker's accounts ranked for the header's filters, with the
// 'Filter Accounts and Bios' search, the advanced filters behind Settings, Reset, sortable
// columns and paging (all in the URL), CSV export, influencer tags (the caller's account
// watchlist) for those who may tag, and the side view of an account's posts.
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useInfluencers, useInfluencerTagMutations, useTagInfluencers, type InfluencerRow } from '../../api/queries/influencers';
import { useInfluencerTags } from '../../api/queries/shell';
import { Button } from '../../components/Button';
import { EmptyState, PREVIEW_BODY, PREVIEW_TITLE } from '../../components/EmptyState';
import { IconChevronDown, IconRefresh, IconSliders, IconTag } from '../../components/icons';
import { LoadError } from '../../components/LoadError';
import { controlClass, SubHeader } from '../../components/Panel';
import { SearchInput } from '../../components/SearchInput';
import { errorMessage } from '../../lib/errors';
import { removeInfluencerTag, resetInfluencerFilters, setAction, setPage, setSearch, setSort } from '../../state/query-state';
import { DEFAULT_TAG_COLOR } from '../posts/format';
import { Notice, type NoticeState } from '../posts/PostModals';
import { useShell } from '../shell/context';
import { AdvancedFilters } from './InfluencerFilters';
import {
  displayName,
  hasPageFilters,
  influencerParams,
  influencersCsvUrl,
  influencerSort,
  MANAGE_TAGS_ACTION,
  pageCount,
  perPageOf,
  rangeLabel,
  toggleSort,
} from './influencers-data';
import { InfluencerSideView } from './InfluencerSideView';
import { InfluencerTable, InfluencerTableSkeleton } from './InfluencerTable';
import { InfluencerTagMenu } from './InfluencerTagMenu';
import { InfluencerTagDialogs, type TagDialog } from './InfluencerTagModals';

let noticeSeq = 0;

export default function InfluencersPage() {
  const { tracker, query, update, access, filters, now } = useShell();
  const locked = tracker.isPreviewMode;
  const [settingsOpen, setSettingsOpen] = useState(() => hasPageFilters({ ...query, search: '' }));
  const sort = influencerSort(query.sort);
  const perPage = perPageOf(query);
  // Everything but paging: the CSV download takes the same query.
  const params = useMemo(() => ({ ...filters, ...influencerParams(query) }), [filters, query]);
  const list = useInfluencers(tracker.hash, { ...params, page: query.page, perPage }, !locked);
  const data = list.data;
  const canTag = !!data?.canTag && !access.embed && !access.demo;
  const canExport = !!data?.canExport && !access.embed;
  const tagsQuery = useInfluencerTags(access.isLoggedIn);
  const allTags = tagsQuery.data?.tags ?? [];

  const [opened, setOpened] = useState<InfluencerRow | null>(null);
  const [dialog, setDialog] = useState<TagDialog>(null);
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const showError = (e: unknown) => {
    noticeSeq += 1;
    setNotice({ id: noticeSeq, text: errorMessage(e), tone: 'error', ms: 5000 });
  };

  // action=influencer-tags (the header's 'Go to Account Watchlist…' link) opens Manage tags once.
  useEffect(() => {
    if (query.action !== MANAGE_TAGS_ACTION || !canTag) return;
    setDialog({ kind: 'manage' });
    update(setAction(null), { replace: true });
  }, [query.action, canTag, update]);

  // ---- tags on accounts: pending per account and tag, the answer shown until the refetch lands ----
  const tagAccounts = useTagInfluencers(tracker.hash);
  const tagMut = useInfluencerTagMutations();
  const [pending, setPending] = useState<Record<string, number[]>>({});
  const [override, setOverride] = useState<Record<string, number[]>>({});
  useEffect(() => setOverride({}), [data]);
  const busy = Object.values(pending).some((l) => l.length > 0) || tagMut.create.isPending || tagMut.remove.isPending;
  const tagsOf = (r: InfluencerRow) => override[r.key] ?? r.tags;

  function toggleTag(r: InfluencerRow, tagId: number, on: boolean) {
    const current = tagsOf(r);
    setPending((p) => ({ ...p, [r.key]: [...(p[r.key] ?? []), tagId] }));
    const done = () => setPending((p) => ({ ...p, [r.key]: (p[r.key] ?? []).filter((t) => t !== tagId) }));
    tagAccounts.mutate(
      { accounts: [r.key], add: on ? [tagId] : [], remove: on ? [] : [tagId] },
      {
        onSuccess: () => {
          setOverride((o) => ({ ...o, [r.key]: on ? [...current.filter((t) => t !== tagId), tagId] : current.filter((t) => t !== tagId) }));
          done();
        },
        onError: (e) => {
          showError(e);
          done();
        },
      },
    );
  }

  const tagMenu = canTag
    ? (r: InfluencerRow) => (
        <InfluencerTagMenu
          account={r.key}
          label={displayName(r)}
          tags={tagsOf(r)}
          all={allTags}
          pending={pending[r.key] ?? []}
          busy={busy}
          onToggle={(t, on) => toggleTag(r, t, on)}
          onCreate={async (name) => {
            const tag = await tagMut.create.mutateAsync({ name, color: DEFAULT_TAG_COLOR });
            toggleTag(r, tag.id, true);
          }}
          onManage={() => setDialog({ kind: 'manage' })}
        />
      )
    : null;

  // ---- paging ----
  const card = useRef<HTMLDivElement>(null);
  const goTo = (page: number) => {
    update(setPage(page));
    card.current?.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
  };
  const rows = data?.influencers ?? [];
  const total = data?.total ?? 0;
  const pages = pageCount(total, perPage);
  const filtered = hasPageFilters(query);
  const showTags = canTag || allTags.length > 0;

  return (
    <div>
      <SubHeader label="Influencer filters">
        <SearchInput value={query.search} onChange={(v) => update(setSearch(v), { replace: true })} placeholder="Filter Accounts and Bios" disabled={locked} />
        <button type="button" className={controlClass} aria-expanded={settingsOpen} aria-controls="influencer-settings" onClick={() => setSettingsOpen((o) => !o)}>
          <IconSliders size={14} />
          {settingsOpen ? 'Hide Settings' : 'Settings'}
        </button>
        <button type="button" className={controlClass} disabled={locked || !filtered} onClick={() => update(resetInfluencerFilters)}>
          <IconRefresh size={14} />
          Reset
        </button>
        <div className="ml-auto flex items-center gap-2">
          {canTag ? (
            <button type="button" className={controlClass} onClick={() => setDialog({ kind: 'manage' })}>
              <IconTag size={14} />
              Manage tags
            </button>
          ) : null}
          {canExport ? <ExportMenu href={influencersCsvUrl(tracker.hash, params)} disabled={locked || total === 0} /> : null}
        </div>
      </SubHeader>
      {settingsOpen ? <AdvancedFilters /> : null}
      <div className="p-6">
        <div ref={card} className="scroll-mt-4 overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm">
          {locked ? (
            <EmptyState graphic="Loading" title={PREVIEW_TITLE} body={PREVIEW_BODY} />
          ) : list.isError ? (
            <LoadError error={list.error} onRetry={() => void list.refetch()} />
          ) : !data ? (
            <InfluencerTableSkeleton sort={sort} showTags={showTags} />
          ) : rows.length === 0 ? (
            total > 0 && query.page > 1 ? (
              <div className="p-10 text-center text-sm text-slate-600">
                <p>This page is past the end of the list.</p>
                <Button className="mt-3" variant="secondary" size="sm" onClick={() => goTo(1)}>
                  Go to the first page
                </Button>
              </div>
            ) : filtered ? (
              <EmptyState graphic="PlatformsWithArrowUp" title="No accounts match these filters." body="Change the search or the filters, or press Reset to see every account." />
            ) : (
              <EmptyState graphic="PlatformsWithArrowUp" />
            )
          ) : (
            // Dimmed while another page, sort or filter loads; the rows shown stay until it lands.
            <div aria-busy={list.isPlaceholderData} className={list.isPlaceholderData ? 'opacity-60 transition-opacity' : ''}>
              <InfluencerTable
                rows={rows}
                sort={sort}
                onSort={(field) => update(setSort(toggleSort(sort, field)))}
                onOpen={setOpened}
                allTags={allTags}
                showTags={showTags}
                tagMenu={tagMenu}
                tagsOf={tagsOf}
              />
              <nav className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-100 px-4 py-3 text-sm text-slate-600" aria-label="Pages">
                <span data-testid="influencers-range">{rangeLabel(query.page, perPage, rows.length, total)} accounts</span>
                <span className="flex items-center gap-2">
                  <Button variant="secondary" size="sm" disabled={query.page <= 1} onClick={() => goTo(query.page - 1)}>
                    Prev
                  </Button>
                  <span className="tabular-nums" aria-live="polite">
                    Page {query.page} of {pages}
                  </span>
                  <Button variant="secondary" size="sm" disabled={query.page >= pages} onClick={() => goTo(query.page + 1)}>
                    Next
                  </Button>
                </span>
              </nav>
            </div>
          )}
        </div>
      </div>
      <InfluencerSideView hash={tracker.hash} filters={filters} account={opened} allTags={allTags} now={now} onClose={() => setOpened(null)} />
      {canTag ? (
        <InfluencerTagDialogs
          dialog={dialog}
          onDialog={setDialog}
          tags={allTags}
          loading={tagsQuery.isLoading}
          onSave={(v) => (v.id !== undefined ? tagMut.edit.mutateAsync({ id: v.id, name: v.name, color: v.color }) : tagMut.create.mutateAsync(v))}
          onDelete={async (t) => {
            await tagMut.remove.mutateAsync(t.id);
            if (query.influencerTags.includes(t.id)) update(removeInfluencerTag(t.id));
          }}
        />
      ) : null}
      <Notice key={notice?.id} notice={notice} onDone={() => setNotice(null)} />
    </div>
  );
}

/** Export → CSV: a plain download of the same query (the server names the file). */
function ExportMenu({ href, disabled }: { href: string; disabled: boolean }) {
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger className={controlClass} disabled={disabled} title={disabled ? 'No accounts to export' : undefined}>
        Export
        <IconChevronDown size={14} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" sideOffset={6} className="z-50 w-40 rounded-lg border border-slate-200 bg-white p-1 shadow-lg">
          <DropdownMenu.Item asChild>
            <a href={href} download className="block rounded-md px-3 py-2 text-sm text-slate-700 outline-none data-[highlighted]:bg-slate-100" data-testid="export-csv">
              CSV
            </a>
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
