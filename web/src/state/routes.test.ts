import { expect, it } from 'vitest';
import { resolveShellRoute, trackerPath } from './routes';

it('resolves tracker pages and redirects unknown ones', () => {
  expect(resolveShellRoute(['posts', 'abc', 'my-tracker'])).toEqual({ kind: 'page', page: 'posts', hash: 'abc', friendly: 'my-tracker' });
  expect(resolveShellRoute(['realtime', 'abc'])).toEqual({ kind: 'page', page: 'realtime', hash: 'abc', friendly: null });
  expect(resolveShellRoute(['nope', 'abc', 'f'])).toEqual({ kind: 'redirect-page', page: 'dashboard', hash: 'abc', friendly: 'f' });
  expect(resolveShellRoute(['posts', 'abc', 'f', 'extra'])).toEqual({ kind: 'redirect-page', page: 'dashboard', hash: 'abc', friendly: 'f' });
  expect(resolveShellRoute(['streaming', 'abc', 'f'])).toEqual({ kind: 'redirect-page', page: 'posts', hash: 'abc', friendly: 'f' });
  expect(resolveShellRoute(['media', 'abc'])).toEqual({ kind: 'redirect-page', page: 'media-wall', hash: 'abc', friendly: null });
  expect(resolveShellRoute(['dashboard'])).toEqual({ kind: 'redirect-list' });
  expect(resolveShellRoute([])).toEqual({ kind: 'redirect-list' });
});

it('builds paths', () => {
  expect(trackerPath('posts', 'abc', 'my tracker')).toBe('/hashtag-tracking/posts/abc/my%20tracker');
  expect(trackerPath('dashboard', 'abc')).toBe('/hashtag-tracking/dashboard/abc');
});
