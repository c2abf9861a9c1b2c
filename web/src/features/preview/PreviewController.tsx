// Runs a new tracker's preview on its pages: streams the sample while the tracker is in preview
// mode (the dashboard fills as posts are flushed), ends preview mode when the stream ends, then
// announces the result: a completion notice, an error notice, or the no-data modal. Also shows
// the high-volume warning when the term's estimate is above the threshold.
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { del, post } from '../../api/client';
import { endPreview, samplePreview, useEndPreview, useVolumeEstimate } from '../../api/queries/preview';
import { trackerKeys } from '../../api/queries/trackers';
import type { Me, PlatformFlags, Tracker, TrackerInput } from '../../api/types';
import type { Access } from '../../state/access';
import { accessOf } from '../trackers/limits';
import { dashboardPath } from '../trackers/tracker-form';
import { HighVolumeModal } from './HighVolumeModal';
import { NoDataModal } from './NoDataModal';
import { previewOutcome, realtimePreviewEnabled, searchInput, startPreview, PREVIEW_FAILED, type PreviewNavState } from './preview-flow';
import { completionText, PreviewNotices, useDelayed, type Notice } from './PreviewNotices';
import type { PreviewState } from './realtime-preview';
import { useRealtimePreview } from './useRealtimePreview';

export interface PreviewContextValue {
  /** The stream of the sample while the tracker is in preview mode. */
  stream: PreviewState | null;
}

const PreviewContext = createContext<PreviewContextValue>({ stream: null });

export function usePreview(): PreviewContextValue {
  return useContext(PreviewContext);
}

const NOTICE_MS = 10_000;

export interface PreviewControllerProps {
  tracker: Tracker;
  me: Me | undefined;
  access: Access;
  /** Awaits the pending total-posts request (or makes one): the tracker's post count. */
  fetchTotal: () => Promise<number>;
  onHistorical: () => void;
  children: ReactNode;
}

export function PreviewController({ tracker, me, access, fetchTotal, onHistorical, children }: PreviewControllerProps) {
  const qc = useQueryClient();
  const location = useLocation();
  const navigate = useNavigate();
  const nav = (location.state ?? null) as PreviewNavState | null;
  const canEdit = access.isLoggedIn && access.permission >= 2 && !access.demo && !tracker.isDemo;
  const [notice, setNotice] = useState<Notice | null>(null);
  const [noData, setNoData] = useState(false);
  const end = useEndPreview(tracker.hash);

  const announce = useCallback(
    async (total: number, error: string | null) => {
      if (error) {
        setNotice({ tone: 'error', text: `${PREVIEW_FAILED} (${error})` });
        return;
      }
      const outcome = await previewOutcome(total, access.trial, fetchTotal);
      if (outcome === 'no-data') setNoData(true);
      else if (outcome === 'completion-notice') setNotice({ tone: 'success', text: completionText(Math.max(total, 0), access.trial) });
    },
    [access.trial, fetchTotal],
  );

  // The stream: on its end preview mode goes off and every page reloads its data.
  const endMutate = end.mutateAsync;
  const onEnd = useCallback(
    (s: PreviewState) => {
      void endMutate()
        .catch(() => undefined)
        .then(() => announce(s.total ?? s.posts.length, s.error));
    },
    [endMutate, announce],
  );
  const realtime = realtimePreviewEnabled();
  const streaming = tracker.isPreviewMode && canEdit && realtime;
  const stream = useRealtimePreview(tracker.hash, streaming, onEnd);

  // Without websockets the sample comes in one answer, then preview mode ends the same way.
  const sampling = useRef(false);
  useEffect(() => {
    if (!tracker.isPreviewMode || !canEdit || realtime || sampling.current) return;
    sampling.current = true;
    samplePreview(tracker.hash)
      .then(
        (s) => ({ total: s.total, error: null as string | null }),
        () => ({ total: 0, error: 'the sample could not be collected' }),
      )
      .then(async (r) => {
        await endMutate().catch(() => undefined);
        await announce(r.total, r.error);
      });
  }, [tracker.isPreviewMode, tracker.hash, canEdit, realtime, endMutate, announce]);

  // Each flush of new posts refreshes what the pages show (the posts are stored as they come).
  const shown = stream.posts.length;
  useEffect(() => {
    if (shown === 0) return;
    void qc.invalidateQueries({ queryKey: ['trackers', 'dashboard', tracker.hash] });
    void qc.invalidateQueries({ queryKey: ['trackers', 'total', tracker.hash] });
  }, [shown, qc, tracker.hash]);

  // A preview that ended before the dashboard opened (the 4-step flow) is announced here once.
  const handled = useRef(false);
  useEffect(() => {
    if (handled.current || !nav?.endedPreview || tracker.isPreviewMode) return;
    handled.current = true;
    void announce(nav.endedPreview.total, null);
    const { endedPreview: _, ...rest } = nav;
    navigate(location.pathname + location.search, { replace: true, state: rest });
  }, [nav, tracker.isPreviewMode, announce, navigate, location.pathname, location.search]);

  useEffect(() => {
    if (!notice || notice.tone === 'error') return;
    const t = setTimeout(() => setNotice(null), NOTICE_MS);
    return () => clearTimeout(t);
  }, [notice]);

  // High volume: asked for a tracker in preview mode or one just created.
  const fromCreation = nav?.fromCreation ?? null;
  const estimate = useVolumeEstimate(tracker.hash, canEdit && (tracker.isPreviewMode || !!fromCreation));
  const [volumeDismissed, setVolumeDismissed] = useState(false);
  const highVolume = !!estimate.data?.highVolume && !volumeDismissed;

  const stopHighVolume = async () => {
    await del(`/trackers/${encodeURIComponent(tracker.hash)}`);
    qc.removeQueries({ queryKey: trackerKeys.one(tracker.hash) });
    void qc.invalidateQueries({ queryKey: ['trackers', 'list'] });
    if (fromCreation) navigate(fromCreation.path, { state: { values: fromCreation.values } });
    else navigate('/mytracks/hashtag');
  };

  const searchAgain = async (term: string, platforms: PlatformFlags) => {
    await del(`/trackers/${encodeURIComponent(tracker.hash)}`);
    qc.removeQueries({ queryKey: trackerKeys.one(tracker.hash) });
    void qc.invalidateQueries({ queryKey: ['trackers', 'list'] });
    const realtime = realtimePreviewEnabled();
    const { tracker: created, total } = await startPreview(searchInput(term, platforms), realtime, {
      create: (input: TrackerInput) => post<Tracker>('/trackers', input),
      sample: samplePreview,
      end: endPreview,
    });
    qc.setQueryData(trackerKeys.one(created.hash), created);
    setNoData(false);
    const state: PreviewNavState = total === null ? {} : { endedPreview: { total, from: 'no-data' } };
    navigate(dashboardPath(created), { state });
  };

  // Only a caller who runs the preview sees it loading (a viewer just sees the empty state).
  const loadingNotice = useDelayed(tracker.isPreviewMode && canEdit);

  return (
    <PreviewContext.Provider value={{ stream: streaming ? stream : null }}>
      {children}
      <PreviewNotices loading={loadingNotice && tracker.isPreviewMode && canEdit} notice={notice} onDismiss={() => setNotice(null)} />
      {noData ? (
        <NoDataModal
          open={noData}
          onOpenChange={setNoData}
          access={accessOf(me)}
          platforms={tracker.platforms}
          onSearch={searchAgain}
          onHistorical={() => {
            setNoData(false);
            onHistorical();
          }}
        />
      ) : null}
      <HighVolumeModal
        open={highVolume && !noData}
        estimate={estimate.data ?? null}
        fromCreation={!!fromCreation}
        onStop={stopHighVolume}
        onContinue={() => setVolumeDismissed(true)}
      />
    </PreviewContext.Provider>
  );
}
