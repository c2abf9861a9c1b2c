import { describe, expect, it, vi } from 'vitest';
import type { Tracker } from '../../api/types';
import { initialFlow, previewFlowReducer, previewOutcome, searchInput, startPreview, type PreviewFlowAction, type PreviewFlowState } from './preview-flow';

const tracker = (over: Partial<Tracker> = {}) => ({ id: 7, hash: 'h7', friendly: 'coffee', isPreviewMode: true, ...over }) as Tracker;

function recorder() {
  let s: PreviewFlowState = initialFlow;
  const steps: number[] = [];
  const dispatch = (a: PreviewFlowAction) => {
    s = previewFlowReducer(s, a);
    steps.push(s.step);
  };
  return { dispatch, state: () => s, steps };
}

describe('preview flow', () => {
  it('advances one step per success and completes with the id and hash', async () => {
    const r = recorder();
    const create = vi.fn(async () => tracker());
    const sample = vi.fn(async () => ({ total: 12 }));
    const end = vi.fn(async () => tracker({ isPreviewMode: false }));
    const out = await startPreview(searchInput(' espresso ', { twt: 1 } as Tracker['platforms']), false, { create, sample, end }, r.dispatch);
    expect(create).toHaveBeenCalledWith({ platforms: { twt: 1 }, search: { rows: [{ type: '+', searches: ['espresso'] }] }, preview: true });
    expect(sample).toHaveBeenCalledWith('h7');
    expect(end).toHaveBeenCalledWith('h7');
    expect(r.steps).toEqual([1, 2, 3, 4, 4]);
    expect(r.state()).toEqual({ step: 4, loading: false, id: 7, hash: 'h7' });
    expect(out.total).toBe(12);
    expect(out.tracker.isPreviewMode).toBe(false);
  });

  it('real-time: creates in preview mode and leaves the sample to the dashboard', async () => {
    const r = recorder();
    const sample = vi.fn();
    const out = await startPreview(searchInput('a', {} as Tracker['platforms']), true, { create: async () => tracker(), sample, end: vi.fn() }, r.dispatch);
    expect(sample).not.toHaveBeenCalled();
    expect(out).toEqual({ tracker: tracker(), total: null });
    expect(r.state().loading).toBe(false);
  });

  it('a tracker the server did not put in preview mode (no source) skips the sample', async () => {
    const sample = vi.fn();
    const out = await startPreview(searchInput('a', {} as Tracker['platforms']), false, { create: async () => tracker({ isPreviewMode: false }), sample, end: vi.fn() });
    expect(sample).not.toHaveBeenCalled();
    expect(out.total).toBeNull();
  });

  it('an error resets the flow and is passed on', async () => {
    const r = recorder();
    const failing = { create: async () => tracker(), sample: async () => Promise.reject(new Error('down')), end: vi.fn() };
    await expect(startPreview(searchInput('a', {} as Tracker['platforms']), false, failing, r.dispatch)).rejects.toThrow('down');
    expect(r.state()).toEqual(initialFlow);
    expect(failing.end).not.toHaveBeenCalled();
  });

  it('steps do not advance outside a running flow', () => {
    expect(previewFlowReducer(initialFlow, { type: 'created' })).toBe(initialFlow);
    let s = previewFlowReducer(initialFlow, { type: 'start' });
    for (let i = 0; i < 6; i++) s = previewFlowReducer(s, { type: 'sampled' });
    expect(s.step).toBe(4);
  });
});

describe('preview outcome', () => {
  it('announces a preview with posts to non-trial users only', async () => {
    const fetchTotal = vi.fn(async () => 0);
    expect(await previewOutcome(3, false, fetchTotal)).toBe('completion-notice');
    expect(await previewOutcome(3, true, fetchTotal)).toBe('none');
    expect(fetchTotal).not.toHaveBeenCalled();
  });

  it('awaits the total-posts request when the sample found nothing', async () => {
    expect(await previewOutcome(0, false, async () => 0)).toBe('no-data');
    expect(await previewOutcome(0, true, async () => 0)).toBe('no-data');
    expect(await previewOutcome(0, false, async () => 4)).toBe('completion-notice');
    expect(await previewOutcome(0, false, () => Promise.reject(new Error('x')))).toBe('no-data');
  });
});
