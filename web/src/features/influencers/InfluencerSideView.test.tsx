import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PostItem } from '../../api/queries/posts';
import { mockApi, renderRoute, type ApiCall } from '../../lib/test-utils';
import { postItem, row } from './fixtures';
import { InfluencerSideView } from './InfluencerSideView';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const PATH = '/trackers/abc/influencers/posts';

function open(answer: (c: ApiCall) => { status?: number; body?: unknown }) {
  const calls = mockApi({ [`GET ${PATH}`]: answer });
  renderRoute(
    <InfluencerSideView hash="abc" filters={{ days: 30, platforms: 'twt' }} account={row({ bio: 'Writes about Rust.', followers: 12_345 })} allTags={[]} now={Date.now()} onClose={() => {}} />,
    { path: '/', url: '/' },
  );
  return calls;
}

const posts = (n: number, over: (i: number) => Partial<PostItem> = () => ({})) => Array.from({ length: n }, (_, i) => postItem(i + 1, over(i + 1)));
const side = () => screen.getByTestId('influencer-side-view');
const text = () => screen.getByTestId('single-post-text').textContent;

describe('InfluencerSideView', () => {
  it('shows the profile and the posts, text cut at 400 characters, sorted by the server on header clicks', async () => {
    const long = 'x'.repeat(450);
    const calls = open(() => ({ body: { influencer: null, total: 2, posts: [postItem(1, { post: { ...postItem(1).post, text: long } }), postItem(2)] } }));
    const table = await screen.findByTestId('account-posts');
    expect(within(side()).getByText('Writes about Rust.')).toBeInTheDocument();
    expect(within(side()).getByText('12.3k')).toBeInTheDocument();
    expect(within(table).getByText(`${'x'.repeat(397)}…`)).toBeInTheDocument();
    const date = screen.getByRole('columnheader', { name: /Date/ });
    expect(date).toHaveAttribute('aria-sort', 'descending');
    fireEvent.click(within(table).getByRole('button', { name: /Engagements/ }));
    await waitFor(() => expect(calls.at(-1)!.query.get('sort')).toBe('engagement;desc'));
    expect(screen.getByRole('columnheader', { name: /Engagements/ })).toHaveAttribute('aria-sort', 'descending');
    fireEvent.click(screen.getByRole('button', { name: /Engagements/ }));
    await waitFor(() => expect(calls.at(-1)!.query.get('sort')).toBe('engagement;asc'));
    fireEvent.click(screen.getByRole('button', { name: /Eng\. Rate/ }));
    await waitFor(() => expect(calls.at(-1)!.query.get('sort')).toBe('engagement_rate;desc'));
    expect(calls.every((c) => c.query.get('account') === 'twitter;alice' && c.query.get('page') === '1')).toBe(true);
  });

  it("says 'No posts available.' for an account without posts", async () => {
    open(() => ({ body: { influencer: null, total: 0, posts: [] } }));
    expect(await screen.findByText('No posts available.')).toBeInTheDocument();
  });

  it('shows the server message when the posts fail', async () => {
    open(() => ({ status: 404, body: { error: { code: 'account_not_found', message: 'This account has no posts in this tracker.' } } }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This account has no posts in this tracker.');
  });

  it('steps through single posts with Prev / Next and the arrow keys, back to the list with Post List', async () => {
    open(() => ({ body: { influencer: null, total: 3, posts: posts(3) } }));
    await screen.findByTestId('account-posts');
    fireEvent.click(screen.getByText('Post number 2'));
    expect(await screen.findByTestId('single-post')).toBeInTheDocument();
    expect(text()).toBe('Post number 2');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(text()).toBe('Post number 3');
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    fireEvent.keyDown(screen.getByTestId('single-post'), { key: 'ArrowLeft' });
    expect(text()).toBe('Post number 2');
    fireEvent.keyDown(screen.getByTestId('single-post'), { key: 'ArrowLeft' });
    expect(text()).toBe('Post number 1');
    expect(screen.getByRole('button', { name: 'Prev' })).toBeDisabled();
    fireEvent.keyDown(screen.getByTestId('single-post'), { key: 'ArrowLeft' });
    expect(text()).toBe('Post number 1');
    fireEvent.keyDown(screen.getByTestId('single-post'), { key: 'ArrowRight' });
    expect(text()).toBe('Post number 2');
    fireEvent.click(screen.getByRole('button', { name: 'Prev' }));
    expect(text()).toBe('Post number 1');
    fireEvent.click(screen.getByRole('button', { name: 'Post List' }));
    expect(await screen.findByTestId('account-posts')).toBeInTheDocument();
    // Keyboard: Enter on a focused row opens it.
    const third = document.querySelector('tr[data-post="twitter;p3"]') as HTMLElement;
    fireEvent.keyDown(third, { key: 'Enter' });
    expect(text()).toBe('Post number 3');
  });

  it('steps onto the next page of posts', async () => {
    const calls = open((c) => {
      const page = Number(c.query.get('page'));
      return { body: { influencer: null, total: 52, posts: page === 1 ? posts(50) : posts(2, (i) => ({ key: `twitter;q${i}`, post: { ...postItem(i).post, text: `Second page ${i}` } })) } };
    });
    await screen.findByTestId('account-posts');
    fireEvent.click(screen.getByText('Post number 50'));
    fireEvent.keyDown(await screen.findByTestId('single-post'), { key: 'ArrowRight' });
    await waitFor(() => expect(text()).toBe('Second page 1'));
    expect(calls.at(-1)!.query.get('page')).toBe('2');
    fireEvent.keyDown(screen.getByTestId('single-post'), { key: 'ArrowLeft' });
    await waitFor(() => expect(text()).toBe('Post number 50'));
  });

  it("says 'Something went wrong! Please go back.' when the post is not there", async () => {
    // The count says three but only two came: the third cannot be shown.
    open(() => ({ body: { influencer: null, total: 3, posts: posts(2) } }));
    await screen.findByTestId('account-posts');
    fireEvent.click(screen.getByText('Post number 2'));
    fireEvent.keyDown(await screen.findByTestId('single-post'), { key: 'ArrowRight' });
    expect(await screen.findByText('Something went wrong! Please go back.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Post List' }));
    expect(await screen.findByTestId('account-posts')).toBeInTheDocument();
  });
});
