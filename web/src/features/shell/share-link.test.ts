import { describe, expect, it } from 'vitest';
import { cleanCustomUrl, sharedQuery, shareLinkUrl } from './share-link';

describe('shareLinkUrl', () => {
  const path = '/hashtag-tracking/dashboard/abc123/launch-week';

  it('adds the shareHash to the path the server gives', () => {
    expect(shareLinkUrl('https://hark.example', path, 's3cr3t', '')).toBe(`https://hark.example${path}?shareHash=s3cr3t`);
  });

  it("keeps the page's query and replaces an older shareHash", () => {
    const url = new URL(shareLinkUrl('https://hark.example', path, 'new', '?days=7&shareHash=old&platforms=twt%2Cig&grouping=day'));
    expect(url.pathname).toBe(path);
    expect(url.searchParams.getAll('shareHash')).toEqual(['new']);
    expect(url.searchParams.get('days')).toBe('7');
    expect(url.searchParams.get('platforms')).toBe('twt,ig');
    expect(url.searchParams.get('grouping')).toBe('day');
  });

  it('leaves out one-shot actions', () => {
    expect(shareLinkUrl('http://h', path, 'x', '?action=historical-data&cumulative=1')).toBe(`http://h${path}?cumulative=1&shareHash=x`);
  });
});

describe('sharedQuery', () => {
  it("keeps the page's query without the shareHash and one-shot actions", () => {
    expect(sharedQuery('?days=30&shareHash=old&platforms=twt%2Cig&action=historical-data')).toBe('days=30&platforms=twt%2Cig');
    expect(sharedQuery('')).toBe('');
    expect(sharedQuery('?shareHash=old')).toBe('');
  });
});

describe('cleanCustomUrl', () => {
  it('removes every space as typed', () => {
    expect(cleanCustomUrl('my brand 2026 ')).toBe('mybrand2026');
    expect(cleanCustomUrl(' launch\tweek')).toBe('launchweek');
    expect(cleanCustomUrl('ok-as_is')).toBe('ok-as_is');
  });
});
