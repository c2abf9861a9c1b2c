// Starting a new tracker's preview (tracker-lifecycle.md section 4). With real-time preview the
// tracker is created in preview mode and its dashboard streams the sample. Without it, the
// 4-step flow runs here: start loading (step 1), create success (2), sample posts received (3),
// process success (4); complete sets id and hash and ends loading; an error resets the flow.
import type { Tracker, TrackerInput } from '../../api/types';

export const PREVIEW_STEPS = 4;
export const PREVIEW_FAILED = 'Unable to get posts. Please try again.';

/** What each step is doing, shown while the flow runs. */
export const STEP_LABELS = ['Creating your tracker', 'Collecting a sample of posts', 'Processing the posts', 'Preview ready'] as const;

export interface PreviewFlowState {
  /** 0 before the start, then 1 to 4. */
  step: number;
  loading: boolean;
  id: number | null;
  hash: string | null;
}

export type PreviewFlowAction =
  | { type: 'start' }
  | { type: 'created' }
  | { type: 'sampled' }
  | { type: 'processed' }
  | { type: 'complete'; id: number; hash: string }
  | { type: 'reset' };

export const initialFlow: PreviewFlowState = { step: 0, loading: false, id: null, hash: null };

export function previewFlowReducer(s: PreviewFlowState, a: PreviewFlowAction): PreviewFlowState {
  switch (a.type) {
    case 'start':
      return { ...initialFlow, step: 1, loading: true };
    case 'created':
    case 'sampled':
    case 'processed':
      // Each success advances one step, never past the last.
      return s.loading ? { ...s, step: Math.min(PREVIEW_STEPS, s.step + 1) } : s;
    case 'complete':
      return { ...s, id: a.id, hash: a.hash, loading: false };
    case 'reset':
      return initialFlow;
  }
}

/** Real-time preview needs websockets in the browser. */
export function realtimePreviewEnabled(): boolean {
  return typeof globalThis.WebSocket === 'function';
}

export interface PreviewCalls {
  create: (input: TrackerInput) => Promise<Tracker>;
  sample: (hash: string) => Promise<{ total: number }>;
  end: (hash: string) => Promise<Tracker>;
}

export interface FlowResult {
  tracker: Tracker;
  /** Posts the sample stored (the 4-step flow only; null when no sample was taken here). */
  total: number | null;
}

/**
 * Creates the tracker in preview mode; without real-time preview also runs the sample and ends
 * preview mode, reporting each step. Throws (after a reset) when a call fails.
 */
export async function startPreview(
  input: TrackerInput,
  realtime: boolean,
  calls: PreviewCalls,
  dispatch: (a: PreviewFlowAction) => void = () => {},
): Promise<FlowResult> {
  dispatch({ type: 'start' });
  try {
    const created = await calls.create({ ...input, preview: true });
    dispatch({ type: 'created' });
    // No source serves its platforms (the server said no preview), or the dashboard streams it.
    if (realtime || !created.isPreviewMode) {
      dispatch({ type: 'complete', id: created.id, hash: created.hash });
      return { tracker: created, total: null };
    }
    const sampled = await calls.sample(created.hash);
    dispatch({ type: 'sampled' });
    const ended = await calls.end(created.hash);
    dispatch({ type: 'processed' });
    dispatch({ type: 'complete', id: ended.id, hash: ended.hash });
    return { tracker: ended, total: sampled.total };
  } catch (e) {
    dispatch({ type: 'reset' });
    throw e;
  }
}

/** A single-term search over the chosen platforms (the no-data modal's "search again"). */
export function searchInput(term: string, platforms: Tracker['platforms']): TrackerInput {
  return { platforms: { ...platforms }, search: { rows: [{ type: '+', searches: [term.trim()] }] } };
}

/** How a finished preview is announced. */
export type PreviewOutcome = 'completion-notice' | 'no-data' | 'none';

/**
 * A preview that stored posts gets a completion notice (not for trial users). With a total of 0
 * the pending total-posts request is awaited: still 0 opens the no-data modal.
 */
export async function previewOutcome(total: number, trial: boolean, fetchTotal: () => Promise<number>): Promise<PreviewOutcome> {
  let n = total;
  if (n === 0) n = await fetchTotal().catch(() => 0);
  if (n === 0) return 'no-data';
  return trial ? 'none' : 'completion-notice';
}

/** State handed to the dashboard after a preview that ended away from it (the 4-step flow). */
export interface EndedPreview {
  total: number;
  from: 'new' | 'no-data';
}

/** Router state of a navigation to a new tracker's dashboard. */
export interface PreviewNavState {
  /** The tracker was just created from the new-tracker form (its values, to edit them again). */
  fromCreation?: { path: string; values: unknown };
  endedPreview?: EndedPreview;
}
