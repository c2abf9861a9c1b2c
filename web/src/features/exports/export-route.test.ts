import { describe, expect, it, vi } from 'vitest';
import { exportFailedText, exportRouteUrl, exportWindowLabel, hasTagFilters, paperFor, parseExportRoute, pdfExportInput } from './export-route';

const split = (url: string) => {
  const u = new URL(url, 'http://x');
  return { path: u.pathname, q: Object.fromEntries(u.searchParams) };
};

describe('the export route the dashboard opens', () => {
  it('a relative window goes in the path, the job and the other filters in the query', () => {
    const url = exportRouteUrl({ hash: 'abc123', format: 'xls', filters: { platforms: 'twt,ig', days: 14, tz: 'Europe/Paris' }, job: 'f'.repeat(32) });
    expect(split(url)).toEqual({
      path: '/hashtag-tracking/export/abc123/xls/14',
      q: { job: 'f'.repeat(32), platforms: 'twt,ig', tz: 'Europe/Paris' },
    });
    expect(url.startsWith('/hashtag-tracking/export/abc123/xls/14?job=')).toBe(true);
  });

  it('a custom range is `custom` with its start and end in the query', () => {
    const url = exportRouteUrl({ hash: 'abc123', format: 'xls', filters: { platforms: 'twt', start: '2025-03-01', end: '2025-03-20', tz: 'UTC' }, job: 't1' });
    expect(split(url)).toEqual({
      path: '/hashtag-tracking/export/abc123/xls/custom',
      q: { job: 't1', platforms: 'twt', start: '2025-03-01', end: '2025-03-20', tz: 'UTC' },
    });
  });

  it('tag filters add /tagFiltered and keep the tags and their modes; no tags, no segment', () => {
    const filters = { platforms: 'twt', days: 7, postTags: '3,4', postTagFilterMode: 'any', influencerTags: '9', influencerTagFilterMode: 'all', subtracker: 2 };
    expect(hasTagFilters(filters)).toBe(true);
    expect(split(exportRouteUrl({ hash: 'h', format: 'xls', filters, job: 'j' }))).toEqual({
      path: '/hashtag-tracking/export/h/xls/7/tagFiltered',
      q: { job: 'j', platforms: 'twt', subtracker: '2', postTags: '3,4', postTagFilterMode: 'any', influencerTags: '9', influencerTagFilterMode: 'all' },
    });
    expect(split(exportRouteUrl({ hash: 'h', format: 'xls', filters: { days: 7, influencerTags: '9', influencerTagFilterMode: 'all' } })).path).toBe(
      '/hashtag-tracking/export/h/xls/7/tagFiltered',
    );
    expect(split(exportRouteUrl({ hash: 'h', format: 'xls', filters: { days: 7 } })).path).toBe('/hashtag-tracking/export/h/xls/7');
  });

  it('a share-link visitor keeps the shareHash, and the timeline grouping rides along', () => {
    const url = exportRouteUrl({ hash: 'h', format: 'xls', filters: { days: 30 }, job: 'j', shareHash: 's 1', grouping: 'day' });
    expect(split(url).q).toEqual({ job: 'j', grouping: 'day', shareHash: 's 1' });
    expect(url).toContain('shareHash=s+1');
  });

  it('escapes the hash in the path', () => {
    expect(exportRouteUrl({ hash: 'a/b', format: 'xls', filters: { days: 1 } })).toBe('/hashtag-tracking/export/a%2Fb/xls/1');
  });
});

describe('the export route read back by the export page', () => {
  it('reads days, the filters, the job and the shareHash into the query of the POST', () => {
    const r = parseExportRoute({ hash: 'h', format: 'xls', days: '14' }, '?job=j1&platforms=twt&tz=UTC&shareHash=s1&grouping=day&subtracker=2');
    expect(r).toEqual({
      ok: true,
      hash: 'h',
      format: 'xls',
      kind: 'xlsx',
      query: { days: '14', platforms: 'twt', tz: 'UTC', subtracker: '2', shareHash: 's1' },
      grouping: 'day',
      eri: null,
      cumulative: false,
      paper: null,
      job: 'j1',
      shareHash: 's1',
      window: { kind: 'days', days: '14' },
      tagged: false,
    });
  });

  it('custom needs a start and an end', () => {
    const r = parseExportRoute({ hash: 'h', format: 'xls', days: 'custom' }, '?start=2025-03-01&end=2025-03-20');
    expect(r.ok && r.query).toEqual({ start: '2025-03-01', end: '2025-03-20' });
    expect(parseExportRoute({ hash: 'h', format: 'xls', days: 'custom' }, '?start=2025-03-01').ok).toBe(false);
  });

  it('/tagFiltered keeps the tags, /allTags drops them', () => {
    const search = '?postTags=3,4&postTagFilterMode=any&influencerTags=9';
    const kept = parseExportRoute({ hash: 'h', format: 'xls', days: '7', rest: 'tagFiltered' }, search);
    expect(kept.ok && kept.query).toEqual({ days: '7', postTags: '3,4', postTagFilterMode: 'any', influencerTags: '9' });
    expect(kept.ok && kept.tagged).toBe(true);
    const dropped = parseExportRoute({ hash: 'h', format: 'xls', days: '7', rest: 'allTags' }, search);
    expect(dropped.ok && dropped.query).toEqual({ days: '7' });
    expect(dropped.ok && dropped.tagged).toBe(false);
  });

  it('round-trips what the dashboard builds', () => {
    const url = exportRouteUrl({ hash: 'abc', format: 'xls', filters: { platforms: 'twt', days: 30, postTags: '5', postTagFilterMode: 'all', tz: 'UTC' }, job: 'j', shareHash: 's' });
    const u = new URL(url, 'http://x');
    const [, , , hash, format, days, rest] = u.pathname.split('/');
    const r = parseExportRoute({ hash, format, days, rest }, u.search);
    expect(r.ok && r.query).toEqual({ days: '30', platforms: 'twt', tz: 'UTC', postTags: '5', postTagFilterMode: 'all', shareHash: 's' });
    expect(r.ok && r.job).toBe('j');
  });

  it('refuses an unknown format or window', () => {
    expect(parseExportRoute({ hash: 'h', format: 'csv', days: '7' }, '')).toMatchObject({ ok: false });
    expect(parseExportRoute({ hash: 'h', format: 'pdf', days: '7' }, '')).toMatchObject({ ok: true, kind: 'pdf' });
    expect(parseExportRoute({ hash: 'h', format: 'xls', days: 'soon' }, '')).toMatchObject({ ok: false });
    expect(parseExportRoute({ hash: 'h', format: 'xls', days: '0' }, '')).toMatchObject({ ok: false });
    expect(parseExportRoute({ hash: 'h', format: 'xls', days: 'all' }, '')).toMatchObject({ ok: true, query: { days: 'all' } });
  });

  it('names the window like the date picker', () => {
    expect(exportWindowLabel({ kind: 'days', days: '14' })).toBe('Past 2 Weeks');
    expect(exportWindowLabel({ kind: 'days', days: '45' })).toBe('Past 45 days');
    expect(exportWindowLabel({ kind: 'days', days: 'all' })).toBe('All Time');
    expect(exportWindowLabel({ kind: 'custom', start: '2025-03-03', end: '2025-03-17' })).toBe('Mar 3 – Mar 17');
  });
});

describe('the PDF report', () => {
  it('a pdf address keeps its timeline options and paper, and reads them back', () => {
    const url = exportRouteUrl({
      hash: 'abc',
      format: 'pdf',
      filters: { platforms: 'twt', days: 7, tz: 'UTC' },
      grouping: 'week',
      pdf: { eri: 'Reach', cumulative: true, paper: 'letter' },
    });
    expect(split(url)).toEqual({
      path: '/hashtag-tracking/export/abc/pdf/7',
      q: { platforms: 'twt', tz: 'UTC', grouping: 'week', eri: 'Reach', cumulative: '1', paper: 'letter' },
    });
    const u = new URL(url, 'http://x');
    const [, , , hash, format, days] = u.pathname.split('/');
    expect(parseExportRoute({ hash, format, days }, u.search)).toMatchObject({
      ok: true,
      format: 'pdf',
      kind: 'pdf',
      query: { days: '7', platforms: 'twt', tz: 'UTC' },
      grouping: 'week',
      eri: 'Reach',
      cumulative: true,
      paper: 'letter',
    });
  });

  it('an unknown metric or paper is left out', () => {
    expect(parseExportRoute({ hash: 'h', format: 'pdf', days: '7' }, '?eri=Likes&paper=a3&cumulative=yes')).toMatchObject({
      ok: true,
      eri: null,
      paper: null,
      cumulative: false,
    });
  });

  it('Letter for en-US and en-CA, A4 for every other language', () => {
    expect(paperFor('en-US')).toBe('letter');
    expect(paperFor('en-CA')).toBe('letter');
    expect(paperFor('en-us')).toBe('letter');
    for (const l of ['en-GB', 'en', 'fr-CA', 'de-DE', 'es-US', '', null, undefined]) expect(paperFor(l)).toBe('a4');
  });

  it('the request body: the Metric (none for Posts only), grouping, running totals and the paper of the browser', () => {
    const lang = vi.spyOn(navigator, 'language', 'get');
    lang.mockReturnValue('en-CA');
    expect(pdfExportInput('dashboard', { grouping: 'day', eri: 'Impressions', cumulative: true })).toEqual({
      kind: 'pdf',
      source: 'dashboard',
      grouping: 'day',
      eri: 'Impressions',
      cumulative: true,
      paper: 'letter',
    });
    lang.mockReturnValue('nl-NL');
    expect(pdfExportInput('posts', { grouping: null, eri: null, cumulative: false })).toEqual({ kind: 'pdf', source: 'posts', cumulative: false, paper: 'a4' });
    // A paper the address names wins over the browser's.
    expect(pdfExportInput('dashboard', { paper: 'letter' }).paper).toBe('letter');
    lang.mockRestore();
  });

  it('the failure texts', () => {
    expect(exportFailedText('xls')).toBe('We were unable to generate the XLS.');
    expect(exportFailedText('pdf')).toBe('We were unable to generate the PDF. Please try again.');
  });
});
