import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Tag } from '../../api/types';
import type { TagFilters } from '../../state/query-state';
import { TagFilter, type TagSource } from './TagFilter';

afterEach(cleanup);

const none: TagFilters = { postTags: [], postTagFilterMode: 'all', influencerTags: [], influencerTagFilterMode: 'all' };
const tags: Tag[] = [
  { id: 1, name: 'zeta', color: '#c0392b' },
  { id: 2, name: 'Alpha', color: '#2980b9' },
];
const src = (p: Partial<TagSource> = {}): TagSource => ({ tags: [], loading: false, error: false, ...p });

function open(props: Partial<Parameters<typeof TagFilter>[0]> = {}) {
  const onApply = vi.fn();
  const onClear = vi.fn();
  render(
    <MemoryRouter>
      <TagFilter
        applied={none}
        postTags={src({ tags })}
        influencerTags={src()}
        canCreate
        createHref="/hashtag-tracking/posts/abc/f"
        onApply={onApply}
        onClear={onClear}
        {...props}
      />
    </MemoryRouter>,
  );
  const trigger = screen.getByRole('button', { name: /Tag filter/ });
  fireEvent.click(trigger);
  return { onApply, onClear };
}

describe('TagFilter', () => {
  it('lists post tags alphabetically, enables Apply once a tag is selected and applies the mode', async () => {
    const { onApply } = open();
    expect(await screen.findByRole('tab', { name: 'Post tags' })).toHaveAttribute('aria-selected', 'true');
    const names = screen.getAllByRole('checkbox').map((c) => c.closest('label')!.textContent);
    expect(names).toEqual(['Alpha', 'zeta']);
    const apply = screen.getByRole('button', { name: 'Apply' });
    expect(apply).toBeDisabled();
    fireEvent.click(screen.getByRole('checkbox', { name: 'zeta' }));
    fireEvent.change(screen.getByRole('combobox', { name: 'Tag filter mode' }), { target: { value: 'any' } });
    expect(apply).toBeEnabled();
    fireEvent.click(apply);
    expect(onApply).toHaveBeenCalledWith({ ...none, postTags: [1], postTagFilterMode: 'any' });
  });

  it('filters by search, shown only with more than one tag', async () => {
    open();
    const search = await screen.findByRole('searchbox', { name: 'Search tags' });
    fireEvent.change(search, { target: { value: 'ALP' } });
    expect(screen.getByRole('checkbox', { name: 'Alpha' })).toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: 'zeta' })).toBeNull();
    cleanup();
    open({ postTags: src({ tags: tags.slice(0, 1) }) });
    await screen.findByRole('checkbox', { name: 'zeta' });
    expect(screen.queryByRole('searchbox', { name: 'Search tags' })).toBeNull();
  });

  it("shows 'Loading...' and the empty-state links", async () => {
    open({ postTags: src({ loading: true }) });
    expect(await screen.findByText('Loading...')).toBeInTheDocument();
    cleanup();
    open({ postTags: src() });
    expect(await screen.findByRole('link', { name: 'Click here to create your first tag!' })).toHaveAttribute('href', '/hashtag-tracking/posts/abc/f');
    fireEvent.click(screen.getByRole('tab', { name: 'Influencer tags' }));
    // Without a watchlist address the hint is text; with it, a link to the influencers page's Manage tags.
    expect(screen.getByText('Go to Account Watchlist to create your first tag')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Go to Account Watchlist to create your first tag' })).toBeNull();
    cleanup();
    open({ postTags: src(), watchlistHref: '/hashtag-tracking/influencers/abc/f?action=influencer-tags' });
    fireEvent.click(await screen.findByRole('tab', { name: 'Influencer tags' }));
    expect(screen.getByRole('link', { name: 'Go to Account Watchlist to create your first tag' })).toHaveAttribute(
      'href',
      '/hashtag-tracking/influencers/abc/f?action=influencer-tags',
    );
  });

  it('disables Apply when nothing changed and clears everything with ×', async () => {
    const applied = { ...none, postTags: [2] };
    const { onClear } = open({ applied });
    const apply = await screen.findByRole('button', { name: 'Apply' });
    expect(screen.getByRole('checkbox', { name: 'Alpha' })).toBeChecked();
    expect(apply).toBeDisabled();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Alpha' }));
    expect(apply).toBeEnabled();
    fireEvent.click(screen.getByRole('button', { name: 'Clear tag filters' }));
    expect(onClear).toHaveBeenCalled();
  });
});
