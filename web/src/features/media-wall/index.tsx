// Media wall page: the tracker's posts with media as a live grid or slideshow, in the saved look
// (the address may override it for one view). Moderators search, filter by visibility, show and
// hide posts, turn moderation on and work through its queue; owners and administrators also
// change the settings, share the moderation link, embed the wall and delete posts. An embed shows
// the wall alone. The wall refreshes at its own pace and lets new posts slide in. The grid mounts
// only the rows near the screen (WallGrid); selection and visibility live here, for every post.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import { ApiError } from '../../api/client';
import {
  mediaWallKeys,
  useMediaWall,
  useSaveWallSettings,
  useSetModeration,
  useSetWallVisibility,
  type MediaWallSettings,
  type WallPost,
} from '../../api/queries/media-wall';
import { useDeletePosts } from '../../api/queries/posts';
import { Button } from '../../components/Button';
import { IconCode, IconExpand, IconLock, IconSettings, IconShare } from '../../components/icons';
import { Notice, type NoticeState } from '../../components/Notice';
import { controlClass, SubHeader } from '../../components/Panel';
import { SearchInput } from '../../components/SearchInput';
import { errorMessage } from '../../lib/errors';
import { clearWallOverrides, setSearch, setWallVisibility, WALL_VISIBILITIES, type WallVisibility } from '../../state/query-state';
import { deletedMessage, UNDO_NOTICE_MS } from '../posts/format';
import { useShell } from '../shell/context';
import { EmbedDialog } from '../shell/EmbedDialog';
import { embedPageLabel, fullTrackerHref } from '../shell/embed';
import { ModerationQueue } from './ModerationQueue';
import { SettingsDialog, SETTINGS_TITLE } from './SettingsDialog';
import { Slideshow } from './Slideshow';
import {
  arrivedKeys,
  clampFrequency,
  FULLSCREEN_UNSUPPORTED,
  grownCount,
  matchesVisibility,
  nextRefreshSeconds,
  normalizeSettings,
  pruneSelection,
  toggleAll,
  toggleKey,
  VISIBILITY_OPTIONS,
  visibilityMessage,
  wallQuery,
  wallView,
} from './wall-data';
import { IconEye, IconEyeOff, IconTrash } from './wall-icons';
import { MediaWallUpgradeModal, ShareModerationDialog, WallDeleteModal } from './WallModals';
import { LockedWall, ModerationSwitch, WallBar, WallEmpty, WallError, WallLoading } from './WallParts';
import { WallGrid } from './WallGrid';

let noticeSeq = 0;

function without<T>(record: Record<string, T>, keys: string[]): Record<string, T> {
  const next = { ...record };
  for (const k of keys) delete next[k];
  return next;
}

export default function MediaWallPage() {
  const { tracker, me, access, query, update, platforms, now } = useShell();
  const qc = useQueryClient();
  const location = useLocation();
  const embed = access.embed;
  const signedIn = !!me?.isLoggedIn;
  // The owner's own plan lacks the wall: locked before anything is asked for.
  const planLacksWall = signedIn && access.isOwner && me?.features?.mediaWall === false;
  const visibility: WallVisibility = embed ? 1 : query.mediaWall.visibility;

  // How many more posts than the saved number the slideshow has asked for.
  const [extra, setExtra] = useState(0);
  const [savedCount, setSavedCount] = useState<number | null>(null);
  const count = extra > 0 && savedCount !== null ? Math.min(500, savedCount + extra) : null;
  const params = useMemo(
    () =>
      wallQuery({
        platforms,
        subtracker: query.subtracker,
        search: embed ? '' : query.search,
        visibility,
        excludeUsers: embed ? null : query.mediaWall.excludeUsers,
        count,
      }),
    [platforms, query.subtracker, query.search, query.mediaWall.excludeUsers, visibility, count, embed],
  );
  const viewKey = JSON.stringify({ ...params, count: undefined });

  // The refresh pace: the saved frequency, 5 s quicker after posts arrived, 5 s slower after none.
  const [paceS, setPaceS] = useState<number | null>(null);
  const [stopped, setStopped] = useState(false);
  const wall = useMediaWall(tracker.hash, params, {
    enabled: !planLacksWall,
    refreshMs: stopped ? false : (paceS ?? 30) * 1000,
  });
  const data = wall.data;
  const saved: MediaWallSettings = useMemo(() => normalizeSettings(data?.settings), [data?.settings]);
  const error = wall.error;
  const upgradeRequired = error instanceof ApiError && error.code === 'upgrade_required';
  const refused = error instanceof ApiError && [401, 403, 404].includes(error.status) && !upgradeRequired;
  const locked = planLacksWall || upgradeRequired;
  useEffect(() => setStopped(locked || refused), [locked, refused]);

  useEffect(() => {
    if (data) setSavedCount(data.settings.postCount);
  }, [data]);
  useEffect(() => {
    setPaceS(clampFrequency(saved.updateFrequency));
  }, [saved.updateFrequency]);

  // Each refresh of the same view: did posts arrive? That sets the pace, and lets them animate in.
  const previousKeys = useRef<{ view: string; keys: string[] } | null>(null);
  const [settledView, setSettledView] = useState<string | null>(null);
  useEffect(() => {
    if (!data || wall.isPlaceholderData) return;
    const keys = [...data.posts, ...data.queue].map((p) => p.key);
    const before = previousKeys.current;
    if (before && before.view === viewKey) {
      const arrived = arrivedKeys(before.keys, keys).length > 0;
      setPaceS((p) => nextRefreshSeconds(p ?? clampFrequency(data.settings.updateFrequency), arrived));
    }
    previousKeys.current = { view: viewKey, keys };
    setSettledView(viewKey);
    // Once per answer (dataUpdatedAt), not on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [wall.dataUpdatedAt, wall.isPlaceholderData]);
  const animate = settledView === viewKey && !wall.isPlaceholderData;

  const readOnly = embed || access.demo;
  const canModerate = !readOnly && (data ? data.canModerate : access.canManage || !!query.moderationKey);
  const canManage = !readOnly && (data ? data.canManage : access.canManage);
  const view = wallView(saved, query.mediaWall, embed);

  // ---- local state over the fetched wall ----
  const [deleted, setDeleted] = useState<ReadonlySet<string>>(new Set());
  const [broken, setBroken] = useState<ReadonlySet<string>>(new Set());
  const [visOverride, setVisOverride] = useState<Record<string, number>>({});
  const [selection, setSelection] = useState<Set<string>>(new Set());
  const [queueSelection, setQueueSelection] = useState<Set<string>>(new Set());
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [shareOpen, setShareOpen] = useState(false);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const [embedOpen, setEmbedOpen] = useState(false);
  const [upgradeOpen, setUpgradeOpen] = useState(false);

  const show = useCallback((text: string, tone: NoticeState['tone'], ms: number, undo?: () => void) => {
    noticeSeq += 1;
    setNotice({ id: noticeSeq, text, tone, ms, undo });
  }, []);

  const posts: WallPost[] = useMemo(
    () =>
      (data?.posts ?? [])
        .map((p) => (p.key in visOverride ? { ...p, visibility: visOverride[p.key] } : p))
        .filter((p) => !deleted.has(p.key) && !broken.has(p.key) && matchesVisibility(p.visibility, visibility)),
    [data, visOverride, deleted, broken, visibility],
  );
  const queue: WallPost[] = useMemo(() => (data?.queue ?? []).filter((p) => !(p.key in visOverride) && !deleted.has(p.key)), [data, visOverride, deleted]);
  const queueHidden = (data?.queue.length ?? 0) - queue.length;
  const showQueue = canModerate && !!data?.moderation;

  useEffect(() => setSelection((s) => pruneSelection(s, posts.map((p) => p.key))), [posts]);
  useEffect(() => setQueueSelection((s) => pruneSelection(s, queue.map((p) => p.key))), [queue]);

  // The posts of the view as last shown: a card mounting for a post that was not among them
  // (it arrived with a refresh, came back after an Undo) slides in; a card mounting because the
  // grid was scrolled to it does not.
  const shown = useRef<{ view: string; keys: ReadonlySet<string> } | null>(null);
  useEffect(() => {
    shown.current = { view: viewKey, keys: new Set(posts.map((p) => p.key)) };
  }, [posts, viewKey]);
  // Read while rendering on purpose: until the answer is shown, these are the keys before it.
  const shownKeys = animate && shown.current?.view === viewKey ? shown.current.keys : null;

  // A view of other posts starts with nothing selected, the slideshow's count as saved, and
  // another chance for media that failed to load.
  useEffect(() => {
    setSelection(new Set());
    setExtra(0);
    setBroken(new Set());
  }, [viewKey]);

  // The lock shows its modal once, when it is found.
  const lockShown = useRef(false);
  useEffect(() => {
    if (locked && !embed && !lockShown.current) {
      lockShown.current = true;
      setUpgradeOpen(true);
    }
  }, [locked, embed]);

  const onBroken = useCallback((key: string) => setBroken((b) => new Set(b).add(key)), []);
  const onSelect = useCallback((key: string, on: boolean) => setSelection((s) => toggleKey(s, key, on)), []);
  const refreshWall = useCallback(() => qc.invalidateQueries({ queryKey: mediaWallKeys.all(tracker.hash) }), [qc, tracker.hash]);

  // ---- moderation ----
  const setVisibility = useSetWallVisibility(tracker.hash);
  const changeVisibilityRef = useRef(changeVisibility);
  useLayoutEffect(() => {
    changeVisibilityRef.current = changeVisibility;
  });
  // One callback for every card, the same from render to render.
  const onCardVisibility = useCallback((key: string, to: 0 | 1) => void changeVisibilityRef.current([key], to, false), []);
  async function changeVisibility(keys: string[], to: 0 | 1, fromQueue: boolean) {
    if (!keys.length) return;
    setVisOverride((o) => ({ ...o, ...Object.fromEntries(keys.map((k) => [k, to])) }));
    try {
      const r = await setVisibility.mutateAsync({ posts: keys, visibility: to });
      if (fromQueue || keys.length > 1) show(visibilityMessage(r.count, to, fromQueue), 'ok', 4000);
    } catch (e) {
      show(errorMessage(e), 'error', 5000);
    } finally {
      // The wall has been fetched again by now: it says where the posts are.
      setVisOverride((o) => without(o, keys));
    }
  }

  const moderation = useSetModeration(tracker.hash);
  const moderationOn = moderation.isPending ? !!moderation.variables : !!data?.moderation;
  function toggleModeration(on: boolean) {
    moderation.mutate(on, {
      onSuccess: (r) => {
        update(setWallVisibility(1), { replace: true });
        if (!on && r.published > 0) show(`${r.published} post(s) from the queue are now on the wall.`, 'ok', 5000);
      },
      onError: (e) => show(errorMessage(e), 'error', 5000),
    });
  }

  // ---- settings ----
  const saveSettings = useSaveWallSettings(tracker.hash);
  async function onSaveSettings(settings: MediaWallSettings) {
    await saveSettings.mutateAsync(settings);
    // What was saved is what shows: the address's one-view overrides go.
    update(clearWallOverrides, { replace: true });
    setExtra(0);
    show('Media wall settings saved.', 'ok', 4000);
  }

  // ---- bulk delete ----
  const del = useDeletePosts(tracker.hash);
  function deleteSelected() {
    const keys = [...selection];
    if (!keys.length) return;
    const restore = () =>
      setDeleted((d) => {
        const n = new Set(d);
        keys.forEach((k) => n.delete(k));
        return n;
      });
    setDeleted((d) => new Set([...d, ...keys]));
    setSelection(new Set());
    del.remove.mutate(keys, {
      onSuccess: (r) =>
        show(deletedMessage(r.count), 'ok', UNDO_NOTICE_MS, () => {
          restore();
          del.undo.mutate(keys, { onSuccess: () => void refreshWall(), onError: (e) => show(errorMessage(e), 'error', 5000) });
        }),
      onError: (e) => {
        restore();
        show(errorMessage(e), 'error', 5000);
      },
    });
  }

  // ---- full screen ----
  const wallRef = useRef<HTMLDivElement>(null);
  const [fullscreen, setFullscreen] = useState(false);
  useEffect(() => {
    const onChange = () => setFullscreen(!!wallRef.current && document.fullscreenElement === wallRef.current);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);
  function enterFullscreen() {
    const el = wallRef.current as (HTMLDivElement & { webkitRequestFullscreen?: () => void }) | null;
    if (!el) return;
    const request = el.requestFullscreen ?? el.webkitRequestFullscreen;
    if (!request || document.fullscreenEnabled === false) {
      window.alert(FULLSCREEN_UNSUPPORTED);
      return;
    }
    Promise.resolve(request.call(el)).catch(() => window.alert(FULLSCREEN_UNSUPPORTED));
  }
  function exitFullscreen() {
    void document.exitFullscreen?.().catch(() => undefined);
  }

  // ---- render ----
  const dark = view.theme === 'dark';
  const visibleKeys = posts.map((p) => p.key);
  const asked = count ?? saved.postCount;
  const busy = setVisibility.isPending;

  let body: ReactNode;
  if (locked) {
    body = <LockedWall signedIn={signedIn} embed={embed} onUpgrade={() => setUpgradeOpen(true)} />;
  } else if (!data && wall.isError) {
    body = <WallError error={error} embed={embed} keyed={!!query.moderationKey} refused={refused} onRetry={() => void wall.refetch()} />;
  } else if (!data) {
    body = <WallLoading dark={dark} />;
  } else if (posts.length === 0) {
    body = <WallEmpty dark={dark} search={query.search} visibility={visibility} />;
  } else if (view.displayMode === 'slideshow') {
    body = (
      <Slideshow
        posts={posts}
        asked={asked}
        theme={view.theme}
        displayText={view.displayText}
        now={now}
        fullscreen={fullscreen}
        controls={!embed}
        onGrow={() => setExtra(grownCount(asked) - saved.postCount)}
        onBroken={onBroken}
      />
    );
  } else {
    body = (
      <WallGrid
        // Full screen scrolls the wall itself: a grid of its own, measured there.
        key={fullscreen ? 'fullscreen' : 'page'}
        posts={posts}
        theme={view.theme}
        displayText={view.displayText}
        now={now}
        shownKeys={shownKeys}
        onBroken={onBroken}
        controls={canModerate && !fullscreen}
        selection={selection}
        busy={busy}
        onSelect={onSelect}
        onVisibility={onCardVisibility}
        scroller={fullscreen ? wallRef.current : null}
      />
    );
  }

  const wallFrame = embed
    ? 'min-h-screen p-4'
    : fullscreen
      ? 'h-screen overflow-y-auto p-8'
      : `min-h-[24rem] rounded-xl p-4 shadow-sm ring-1 sm:p-6 ${dark ? 'ring-slate-800' : 'ring-slate-200'}`;
  const selectionShown = posts.filter((p) => selection.has(p.key));

  return (
    <div>
      {!embed ? (
        <SubHeader label="Media wall controls">
          {locked ? (
            <button
              type="button"
              className="inline-flex h-9 items-center gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 text-sm font-medium text-amber-800 shadow-sm hover:bg-amber-100 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600"
              onClick={() => setUpgradeOpen(true)}
              aria-haspopup="dialog"
            >
              <IconLock size={14} />
              Upgrade to unlock
            </button>
          ) : null}
          {canModerate && !locked ? (
            <>
              <SearchInput
                value={query.search}
                onChange={(v) => update(setSearch(v), { replace: true })}
                placeholder="Find a Post"
                clearLabel="Clear search"
                width="w-60"
              />
              <select
                aria-label="Post visibility"
                value={String(visibility)}
                onChange={(e) => {
                  const v = Number(e.target.value) as WallVisibility;
                  if (WALL_VISIBILITIES.includes(v)) update(setWallVisibility(v));
                }}
                className="h-9 rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-700 shadow-sm focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600"
              >
                {VISIBILITY_OPTIONS.map((o) => (
                  <option key={o.value} value={String(o.value)}>
                    {o.label}
                  </option>
                ))}
              </select>
              <ModerationSwitch checked={moderationOn} busy={moderation.isPending} disabled={!data} onChange={toggleModeration} />
            </>
          ) : null}
          {canManage && !locked ? (
            <>
              <button type="button" className={controlClass} onClick={() => setShareOpen(true)} aria-haspopup="dialog">
                <IconShare size={14} />
                Share Moderation
              </button>
              <button type="button" className={controlClass} onClick={() => setSettingsOpen(true)} aria-haspopup="dialog" title={SETTINGS_TITLE} disabled={!data}>
                <IconSettings size={14} />
                Settings
              </button>
            </>
          ) : null}
          <div className="ml-auto flex gap-2">
            <button type="button" className={controlClass} onClick={enterFullscreen} disabled={locked}>
              <IconExpand size={14} />
              Full Screen
            </button>
            {canManage && access.canEmbed && !locked ? (
              <button type="button" className={controlClass} onClick={() => setEmbedOpen(true)} aria-haspopup="dialog">
                <IconCode size={14} />
                Embed
              </button>
            ) : null}
          </div>
        </SubHeader>
      ) : null}

      <div className={embed ? '' : 'space-y-4 p-6'}>
        {showQueue && !locked ? (
          <ModerationQueue
            posts={queue}
            total={Math.max(0, (data?.queueTotal ?? 0) - queueHidden)}
            now={now}
            animate={animate}
            selected={queueSelection}
            busy={busy}
            onSelect={(key, on) => setQueueSelection((s) => toggleKey(s, key, on))}
            onSelectAll={() => setQueueSelection((s) => toggleAll(s, queue.map((p) => p.key)))}
            onDecide={(keys, to) => {
              setQueueSelection((s) => new Set([...s].filter((k) => !keys.includes(k))));
              void changeVisibility(keys, to, true);
            }}
          />
        ) : null}

        {canModerate && selection.size > 0 && !locked ? (
          <div className="flex flex-wrap items-center gap-3 rounded-lg border border-brand-200 bg-brand-50 px-4 py-2 text-sm" role="region" aria-label="Selected posts">
            <span className="font-medium text-slate-800">{selectionShown.length} selected</span>
            <Button size="sm" variant="secondary" disabled={busy} onClick={() => void changeVisibility(selectionShown.map((p) => p.key), 0, false)}>
              <IconEyeOff size={14} />
              Hide
            </Button>
            <Button size="sm" variant="secondary" disabled={busy} onClick={() => void changeVisibility(selectionShown.map((p) => p.key), 1, false)}>
              <IconEye size={14} />
              Show
            </Button>
            {canManage ? (
              <Button size="sm" variant="danger" onClick={() => setDeleteOpen(true)}>
                <IconTrash size={14} />
                Delete
              </Button>
            ) : null}
            <button type="button" className="text-slate-700 underline" onClick={() => setSelection(new Set(visibleKeys))}>
              Select all {visibleKeys.length}
            </button>
            <button type="button" className="ml-auto text-slate-600 underline" onClick={() => setSelection(new Set())}>
              Clear selection
            </button>
          </div>
        ) : null}

        <div
          ref={wallRef}
          data-testid="media-wall"
          data-theme={view.theme}
          data-mode={view.displayMode}
          aria-busy={wall.isFetching && !data ? true : undefined}
          className={`${dark ? 'bg-slate-950 text-slate-100' : 'bg-slate-50 text-slate-900'} ${wallFrame}`}
        >
          {data && !locked && (fullscreen || embed || posts.length > 0) ? (
            <WallBar
              title={fullscreen || embed ? tracker.title : null}
              fullHref={embed ? fullTrackerHref(window.location.origin, location.pathname, location.search) : null}
              count={posts.length}
              dark={dark}
              paceS={paceS}
              fullscreen={fullscreen}
              onExit={exitFullscreen}
            />
          ) : null}
          {body}
        </div>
      </div>

      {canManage ? (
        <>
          <SettingsDialog open={settingsOpen} onOpenChange={setSettingsOpen} saved={saved} onSave={onSaveSettings} />
          <ShareModerationDialog open={shareOpen} onOpenChange={setShareOpen} hash={tracker.hash} />
          <WallDeleteModal count={selectionShown.length} open={deleteOpen} onOpenChange={setDeleteOpen} onConfirm={deleteSelected} />
        </>
      ) : null}
      {embedOpen ? <EmbedDialog open onOpenChange={setEmbedOpen} hash={tracker.hash} target={{ page: 'media-wall' }} label={embedPageLabel('media-wall')} /> : null}
      {!embed ? <MediaWallUpgradeModal open={upgradeOpen} onOpenChange={setUpgradeOpen} signedIn={signedIn} /> : null}
      <Notice key={notice?.id} notice={notice} onDone={() => setNotice(null)} />
    </div>
  );
}
