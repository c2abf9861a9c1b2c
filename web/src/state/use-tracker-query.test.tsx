import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { setSearch, setSort } from './query-state';
import { useTrackerQuery } from './use-tracker-query';

describe('useTrackerQuery', () => {
  it('two updates before a re-render each start from the one before', () => {
    const wrapper = ({ children }: { children: ReactNode }) => (
      <MemoryRouter initialEntries={['/hashtag-tracking/posts/abc?sentiment=negative']}>{children}</MemoryRouter>
    );
    const { result } = renderHook(
      () => {
        const q = useTrackerQuery('posts');
        return { ...q, search: useLocation().search };
      },
      { wrapper },
    );
    const update = result.current.update;
    // Both with the callback of one render, as a Reset then a sort chosen at once would.
    act(() => {
      update((s) => ({ ...s, sentiment: [] }));
      update(setSort({ type: 'user', direction: 'asc' }));
    });
    expect(result.current.state.sentiment).toEqual([]);
    expect(result.current.state.sort).toEqual({ type: 'user', direction: 'asc' });
    act(() => {
      result.current.update(setSearch('lisbon'));
    });
    expect(new URLSearchParams(result.current.search).get('search')).toBe('lisbon');
    expect(new URLSearchParams(result.current.search).get('sort')).toBe('user;asc');
  });
});
