import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderRoute, type ApiCall } from '../../lib/test-utils';
import { TrackerShell } from '../shell';
import { meFixture, trackerFixture } from '../trackers/fixtures';
import { LOADING_NOTICE } from './PreviewNotices';

class FakeSocket {
  static all: FakeSocket[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(public url: string) {
    FakeSocket.all.push(this);
  }
  close() {}
  emit(data: unknown) {
    this.onmessage?.({ data: JSON.stringify(data) });
  }
}

beforeEach(() => {
  FakeSocket.all = [];
  vi.stubGlobal('WebSocket', FakeSocket);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const post = (id: string, createdAt: number) => ({ platform: 'twitter', id, createdAt, text: `post ${id}`, author: { username: 'ferris', name: 'Ferris' } });

function open(opts: { total?: number; estimate?: unknown; trial?: boolean } = {}): ApiCall[] {
  let previewMode = true;
  const tracker = () => trackerFixture({ hash: 'h1', friendly: 'espresso', isPreviewMode: previewMode });
  const calls = mockApi({
    'GET /me': () => ({ body: meFixture({ trial: opts.trial ?? false }) }),
    'GET /trackers/h1': () => ({ body: tracker() }),
    'GET /trackers/h1/total-posts': () => ({ body: { count: { posts: opts.total ?? 0 } } }),
    'POST /trackers/h1/preview/end': () => {
      previewMode = false;
      return { body: tracker() };
    },
    'GET /trackers/h1/preview/estimate': () =>
      opts.estimate ? { body: opts.estimate } : { status: 422, body: { error: { code: 'no_connector', message: 'none' } } },
    'DELETE /trackers/h1': () => ({ body: { status: 'success' } }),
    'POST /trackers': () => ({ status: 201, body: trackerFixture({ hash: 'h2', friendly: 'latte', isPreviewMode: true }) }),
  });
  renderRoute(<TrackerShell />, { path: '/hashtag-tracking/:page/:hash/:friendly?', url: '/hashtag-tracking/dashboard/h1/espresso' });
  return calls;
}

describe('preview on the tracker pages', () => {
  it('streams posts into the dashboard, ends preview mode and shows the completion notice', async () => {
    const calls = open({ total: 2 });
    expect(await screen.findByText('Collecting posts...', {}, { timeout: 5000 })).toBeInTheDocument();
    await waitFor(() => expect(FakeSocket.all).toHaveLength(1));
    expect(FakeSocket.all[0].url).toMatch(/\/api\/v1\/trackers\/h1\/preview\/stream$/);
    expect(await screen.findByText(LOADING_NOTICE)).toBeInTheDocument();
    act(() => {
      FakeSocket.all[0].onopen?.();
      FakeSocket.all[0].emit({ type: 'posts', posts: [post('1', 1000), post('2', 2000)] });
      FakeSocket.all[0].emit({ type: 'posts', posts: [post('1', 1000)] });
    });
    // Shown at the next 2.5 s flush: merged, one per post, newest first.
    const list = await screen.findByTestId('preview-posts', {}, { timeout: 4000 });
    expect([...list.querySelectorAll('[data-post-id]')].map((e) => e.getAttribute('data-post-id'))).toEqual(['2', '1']);
    act(() => {
      FakeSocket.all[0].emit({ type: 'fetching_complete' });
      FakeSocket.all[0].emit({ type: 'processing_complete', total: 2 });
    });
    // Shown once preview mode is ended on the server (a request and a refetch): slow under load.
    expect(
      await screen.findByText('Preview complete: 2 posts from the last 2 weeks. New posts keep arriving.', {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST' && c.path === '/trackers/h1/preview/end')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByTestId('preview-mode')).not.toBeInTheDocument(), { timeout: 5000 });
    expect(screen.queryByText(LOADING_NOTICE)).not.toBeInTheDocument();
  }, 20_000);

  it('a preview that found nothing opens the no-data modal; searching again replaces the tracker', async () => {
    const calls = open({ total: 0 });
    await waitFor(() => expect(FakeSocket.all).toHaveLength(1));
    act(() => {
      FakeSocket.all[0].onopen?.();
      FakeSocket.all[0].emit({ type: 'fetching_complete' });
      FakeSocket.all[0].emit({ type: 'processing_complete', total: 0 });
    });
    expect(await screen.findByText('Ruh roh, no data found. Try again?')).toBeInTheDocument();
    // The total was asked for again after the end before deciding.
    const ended = calls.findIndex((c) => c.path === '/trackers/h1/preview/end');
    expect(calls.slice(ended).some((c) => c.path === '/trackers/h1/total-posts')).toBe(true);
    fireEvent.change(screen.getByRole('textbox', { name: 'Search term' }), { target: { value: 'latte' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/hashtag-tracking/dashboard/h2/latte'));
    const order = calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.path}`);
    expect(order).toEqual(['POST /trackers/h1/preview/end', 'DELETE /trackers/h1', 'POST /trackers']);
    expect(calls.find((c) => c.method === 'POST' && c.path === '/trackers')!.body).toMatchObject({
      search: { rows: [{ type: '+', searches: ['latte'] }] },
      preview: true,
    });
  });

  it('trial users get no completion notice', async () => {
    open({ total: 3, trial: true });
    await waitFor(() => expect(FakeSocket.all).toHaveLength(1));
    act(() => FakeSocket.all[0].emit({ type: 'processing_complete', total: 3 }));
    await waitFor(() => expect(screen.queryByTestId('preview-mode')).not.toBeInTheDocument());
    expect(screen.queryByText(/Preview complete/)).not.toBeInTheDocument();
    expect(screen.queryByText('Ruh roh, no data found. Try again?')).not.toBeInTheDocument();
  });

  it('a high-volume estimate warns; stop and delete removes the tracker', async () => {
    const calls = open({ estimate: { sources: [], total: 900_000, complete: true, windowDays: 14, threshold: 500_000, highVolume: true } });
    expect(await screen.findByText('This keyword has extremely high volume and will consume your data limits very quickly...')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Stop and delete' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/mytracks/hashtag'));
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/trackers/h1')).toBe(true);
  });
});
