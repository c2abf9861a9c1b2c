import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderRoute } from '../../lib/test-utils';
import { meFixture, trackerFixture } from './fixtures';
import { NewTrackerPage } from './NewTrackerPage';
import { INSTAGRAM_WARNING } from './TrackerForm';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const page = (url = '/new/ht/step1', me = meFixture()) => {
  const calls = mockApi({
    'GET /me': () => ({ body: me }),
    'POST /trackers': () => ({ status: 201, body: trackerFixture({ hash: 'h1', friendly: 'nasa' }) }),
  });
  renderRoute(<NewTrackerPage />, { path: '/new/ht/step1', url });
  return calls;
};

describe('NewTrackerPage', () => {
  it('shows validation errors only after a save attempt, then saves and opens the dashboard', async () => {
    const calls = page();
    const save = await screen.findByRole('button', { name: 'Save' });
    expect(screen.queryByText('At least one search term must be entered.')).not.toBeInTheDocument();
    fireEvent.click(save);
    expect(await screen.findByText('At least one search term must be entered.')).toBeInTheDocument();
    expect(screen.getByText('At least one platform must be selected.')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.change(screen.getByRole('textbox', { name: 'Row 1 term 1' }), { target: { value: '@nasa' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Twitter' }));
    expect(screen.queryByText('At least one search term must be entered.')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Exclude Retweets' }));
    fireEvent.click(save);

    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/hashtag-tracking/dashboard/h1/nasa'));
    const post = calls.find((c) => c.method === 'POST' && c.path === '/trackers')!;
    expect(post.body).toMatchObject({
      search: { rows: [{ type: '+', searches: ['nasa'] }] },
      platforms: { twt: 1, ig: 0 },
      excludeRetweets: true,
    });
  });

  it('Exclude Retweets appears only with twitter; Instagram warning with # or @ terms', async () => {
    page();
    await screen.findByRole('button', { name: 'Save' });
    expect(screen.queryByRole('checkbox', { name: 'Exclude Retweets' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Instagram' }));
    expect(screen.queryByText(INSTAGRAM_WARNING)).not.toBeInTheDocument();
    fireEvent.change(screen.getByRole('textbox', { name: 'Row 1 term 1' }), { target: { value: '#space' } });
    expect(screen.getByText(INSTAGRAM_WARNING)).toBeInTheDocument();
  });

  it('locks tiktok, facebook and youtube for trial users with a contact link', async () => {
    page('/new/ht/step1', meFixture({ trial: true }));
    await screen.findByRole('button', { name: 'Save' });
    expect(screen.getByRole('checkbox', { name: 'TikTok' })).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: 'Facebook' })).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: 'YouTube' })).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: 'News' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'listening for specified TikTok accounts is not available on trial' })).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Contact us' })[0]).toHaveAttribute('href', '/contact-us');
  });

  it('shows server field errors inline', async () => {
    mockApi({
      'GET /me': () => ({ body: meFixture() }),
      'POST /trackers': () => ({
        status: 422,
        body: { error: { code: 'validation_failed', message: 'Invalid', fields: [{ field: 'search', code: 'too_many_searches', message: 'Your plan allows 5 searches; this search makes 6.' }] } },
      }),
    });
    renderRoute(<NewTrackerPage />, { path: '/new/ht/step1', url: '/new/ht/step1' });
    fireEvent.change(await screen.findByRole('textbox', { name: 'Row 1 term 1' }), { target: { value: 'a' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'News' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Your plan allows 5 searches; this search makes 6.')).toBeInTheDocument();
  });

  it('sends exclude rows and advanced filters; a bad volume limit blocks saving', async () => {
    const calls = page();
    fireEvent.change(await screen.findByRole('textbox', { name: 'Row 1 term 1' }), { target: { value: 'rust' } });
    fireEvent.click(screen.getByRole('button', { name: '+ Add row' }));
    fireEvent.change(screen.getByRole('combobox', { name: 'Row 2 type' }), { target: { value: '-' } });
    expect(screen.getByText('Do not include', { selector: 'option' })).toBeInTheDocument();
    fireEvent.change(screen.getByRole('textbox', { name: 'Row 2 term 1' }), { target: { value: 'game' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Blogs' }));
    fireEvent.click(screen.getByRole('button', { name: 'Advanced filters' }));
    fireEvent.change(screen.getByLabelText('Language'), { target: { value: 'en' } });
    fireEvent.change(screen.getByLabelText('Country locations'), { target: { value: 'us, gb' } });
    fireEvent.change(screen.getByLabelText('Volume limit'), { target: { value: 'lots' } });
    fireEvent.change(screen.getByLabelText('Subtracker terms'), { target: { value: 'cargo\nclippy' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Enter a positive whole number of posts, or leave it blank for no limit.')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(screen.getByLabelText('Volume limit'), { target: { value: '5000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.body).toMatchObject({
      search: { rows: [{ type: '+', searches: ['rust'] }, { type: '-', searches: ['game'] }] },
      platforms: { blogs: 1, twt: 0 },
      language: 'en',
      countryLocations: ['US', 'GB'],
      volumeLimit: 5000,
      subtrackers: ['cargo', 'clippy'],
    });
  });

  it('demo mode is read-only without a Save button', async () => {
    mockApi({ 'GET /me': () => ({ body: meFixture({ isLoggedIn: false }) }) });
    renderRoute(<NewTrackerPage />, { path: '/new/ht/step1', url: '/new/ht/step1?demo=true' });
    expect(await screen.findByRole('textbox', { name: 'Row 1 term 1' })).toHaveAttribute('readonly');
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Twitter' })).toBeDisabled();
  });

  it('without websockets runs the 4-step preview, then opens the dashboard', async () => {
    vi.stubGlobal('WebSocket', undefined);
    let release: () => void = () => {};
    const sampled = new Promise<void>((r) => (release = r));
    const calls = mockApi({
      'GET /me': () => ({ body: meFixture() }),
      'POST /trackers': () => ({ status: 201, body: trackerFixture({ hash: 'h1', friendly: 'nasa', isPreviewMode: true }) }),
      'POST /trackers/h1/preview/sample': async () => {
        await sampled;
        return { body: { posts: [], total: 3, sourceErrors: [], timedOut: false } };
      },
      'POST /trackers/h1/preview/end': () => ({ body: trackerFixture({ hash: 'h1', friendly: 'nasa', isPreviewMode: false }) }),
    });
    renderRoute(<NewTrackerPage />, { path: '/new/ht/step1', url: '/new/ht/step1' });
    fireEvent.change(await screen.findByRole('textbox', { name: 'Row 1 term 1' }), { target: { value: 'nasa' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Twitter' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Step 2 of 4: Collecting a sample of posts')).toBeInTheDocument();
    release();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/hashtag-tracking/dashboard/h1/nasa'));
    expect(calls.map((c) => `${c.method} ${c.path}`).filter((c) => c.startsWith('POST'))).toEqual([
      'POST /trackers',
      'POST /trackers/h1/preview/sample',
      'POST /trackers/h1/preview/end',
    ]);
    expect(calls.find((c) => c.path === '/trackers')!.body).toMatchObject({ preview: true });
  });

  it('a failed sample resets the flow, says so and removes the half-made tracker', async () => {
    vi.stubGlobal('WebSocket', undefined);
    const calls = mockApi({
      'GET /me': () => ({ body: meFixture() }),
      'POST /trackers': () => ({ status: 201, body: trackerFixture({ hash: 'h1', friendly: 'nasa', isPreviewMode: true }) }),
      'POST /trackers/h1/preview/sample': () => ({ status: 500, body: { error: { code: 'internal', message: 'x' } } }),
      'DELETE /trackers/h1': () => ({ body: { status: 'success' } }),
    });
    renderRoute(<NewTrackerPage />, { path: '/new/ht/step1', url: '/new/ht/step1' });
    fireEvent.change(await screen.findByRole('textbox', { name: 'Row 1 term 1' }), { target: { value: 'nasa' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Twitter' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Unable to get posts. Please try again.')).toBeInTheDocument();
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.path === '/trackers/h1')).toBe(true));
    expect(screen.queryByText(/Step \d of 4/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
    expect(screen.getByTestId('location')).toHaveTextContent('/new/ht/step1');
  });
});
