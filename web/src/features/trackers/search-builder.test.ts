import { describe, expect, it } from 'vitest';
import type { PlatformCode, SearchRow } from '../../api/types';
import {
  addInput,
  addRow,
  canAddMore,
  canExclude,
  defaultTitle,
  emptyPlatforms,
  ignoreCount,
  inputWidth,
  MSG_NO_PLATFORM,
  MSG_NO_TERM,
  normalizeRows,
  normalizeTerm,
  parseList,
  platformLock,
  removeInput,
  removeRow,
  rowLabel,
  rowsForEditing,
  searchCount,
  setRowType,
  setTerm,
  showExcludeRetweets,
  showInstagramWarning,
  validate,
  visibleErrors,
} from './search-builder';

const plus = (...searches: string[]): SearchRow => ({ type: '+', searches });
const minus = (...searches: string[]): SearchRow => ({ type: '-', searches });

describe('counts', () => {
  it('search count is the larger of product and sum of non-blank terms per include row', () => {
    expect(searchCount([plus('a', 'b'), plus('c', 'd')])).toBe(4);
    expect(searchCount([plus('a', 'b', 'c'), plus('d')])).toBe(4);
    expect(searchCount([plus('a', 'b', 'c'), plus('d', 'e')])).toBe(6);
    expect(searchCount([plus('a')])).toBe(1);
    expect(searchCount([])).toBe(0);
  });

  it('ignores blank terms, blank rows and exclude rows in the search count', () => {
    expect(searchCount([plus('a', ' '), plus('', ''), minus('x', 'y')])).toBe(1);
    expect(searchCount([plus('', '')])).toBe(0);
  });

  it('ignore count is the non-blank terms of exclude rows', () => {
    expect(ignoreCount([plus('a'), minus('x', ''), minus('y', 'z')])).toBe(3);
    expect(ignoreCount([plus('a')])).toBe(0);
  });
});

describe('limits', () => {
  const limits = { maxSearches: 5, maxIgnored: 2 };
  it('hides add controls once the include count reaches maxSearches', () => {
    expect(canAddMore([plus('a', 'b', 'c', 'd')], limits)).toBe(true);
    expect(canAddMore([plus('a', 'b', 'c', 'd', 'e')], limits)).toBe(false);
    expect(canAddMore([plus('a', 'b'), plus('c', 'd', 'e')], limits)).toBe(false); // 6 >= 5
  });
  it('hides add controls once the exclude count reaches maxIgnored', () => {
    expect(canAddMore([plus('a'), minus('x')], limits)).toBe(true);
    expect(canAddMore([plus('a'), minus('x', 'y')], limits)).toBe(false);
  });
  it('offers the exclude option only while below maxIgnored', () => {
    expect(canExclude([plus('a'), minus('x')], limits)).toBe(true);
    expect(canExclude([plus('a'), minus('x', 'y')], limits)).toBe(false);
  });
  it('a plan without excluded terms keeps the include controls but not the exclude option', () => {
    const none = { maxSearches: 5, maxIgnored: 0 };
    expect(canAddMore([plus('a')], none)).toBe(true);
    expect(canExclude([plus('a')], none)).toBe(false);
    // An edited tracker holding one anyway is over the limit.
    expect(canAddMore([plus('a'), minus('x')], none)).toBe(false);
  });
});

describe('row labels and widths', () => {
  it('only the first row is fixed', () => {
    expect(rowLabel(0, '+')).toBe('That include');
    expect(rowLabel(1, '+')).toBe('And include');
    expect(rowLabel(2, '-')).toBe('Do not include');
  });
  it('input is 150 px, growing 5 px per character beyond 10', () => {
    expect(inputWidth('')).toBe(150);
    expect(inputWidth('0123456789')).toBe(150);
    expect(inputWidth('0123456789a')).toBe(155);
    expect(inputWidth('x'.repeat(30))).toBe(250);
  });
});

describe('normalisation', () => {
  it('strips a leading @ only from terms longer than one character', () => {
    expect(normalizeTerm('@nasa')).toBe('nasa');
    expect(normalizeTerm('  @nasa ')).toBe('nasa');
    expect(normalizeTerm('@')).toBe('@');
    expect(normalizeTerm('#rust')).toBe('#rust');
    expect(normalizeTerm('@@nasa')).toBe('nasa');
    expect(normalizeTerm('@ @')).toBe('@');
  });
  it('drops blank terms and removes empty rows', () => {
    expect(normalizeRows([plus(' a ', ''), plus('', ' '), minus('', '@b')])).toEqual([plus('a'), minus('b')]);
  });
  it('default title uses the first term', () => {
    expect(defaultTitle([plus('', '@rustlang'), plus('b')])).toBe('Real-time Tracker: rustlang');
    expect(defaultTitle([plus('')])).toBe('');
  });
});

describe('row updates', () => {
  it('new rows start with two blank inputs as include rows', () => {
    expect(addRow([plus('a')])).toEqual([plus('a'), plus('', '')]);
  });
  it('first row cannot be removed or switched', () => {
    const rows = [plus('a'), plus('b')];
    expect(removeRow(rows, 0)).toBe(rows);
    expect(setRowType(rows, 0, '-')).toBe(rows);
    expect(setRowType(rows, 1, '-')).toEqual([plus('a'), minus('b')]);
    expect(removeRow(rows, 1)).toEqual([plus('a')]);
  });
  it('adds, edits and removes inputs without touching other rows', () => {
    let rows = [plus('a'), plus('b')];
    rows = addInput(rows, 1);
    expect(rows).toEqual([plus('a'), plus('b', '')]);
    rows = setTerm(rows, 1, 1, 'c');
    expect(rows).toEqual([plus('a'), plus('b', 'c')]);
    rows = removeInput(rows, 1, 0);
    expect(rows).toEqual([plus('a'), plus('c')]);
    expect(removeInput([plus('a')], 0, 0)).toEqual([plus('')]);
  });
  it('edit rows always start with an include row', () => {
    expect(rowsForEditing([minus('x')])).toEqual([plus(''), minus('x')]);
    expect(rowsForEditing([plus('a'), minus('x')])).toEqual([plus('a'), minus('x')]);
  });
});

describe('validation', () => {
  it('needs an include term and a platform', () => {
    const none = emptyPlatforms();
    expect(validate([plus(' ')], none)).toEqual({ search: MSG_NO_TERM, platforms: MSG_NO_PLATFORM });
    expect(validate([plus(''), minus('x')], { ...none, twt: 1 })).toEqual({ search: MSG_NO_TERM });
    expect(validate([plus('a')], { ...none, news: 1 })).toEqual({});
  });
  it('shows errors only after a save attempt', () => {
    expect(visibleErrors([plus('')], emptyPlatforms(), 0)).toEqual({});
    expect(visibleErrors([plus('')], emptyPlatforms(), 1).search).toBe(MSG_NO_TERM);
  });
});

describe('platform rules', () => {
  const p = emptyPlatforms();
  it('exclude retweets only with twitter', () => {
    expect(showExcludeRetweets(p)).toBe(false);
    expect(showExcludeRetweets({ ...p, twt: 1 })).toBe(true);
  });
  it('instagram warning with # or @ terms and instagram on', () => {
    expect(showInstagramWarning([plus('#a')], p)).toBe(false);
    expect(showInstagramWarning([plus('a b')], { ...p, ig: 1 })).toBe(false);
    expect(showInstagramWarning([plus('a'), minus('@b')], { ...p, ig: 1 })).toBe(true);
    expect(showInstagramWarning([plus('#a')], { ...p, ig: 1 })).toBe(true);
  });
  it('locks tiktok, facebook and youtube on trial while off', () => {
    const trial = { trial: true, allowFacebook: true, allowTiktok: true, allowYoutube: true };
    expect(platformLock('tt', false, trial)).toBe('trial');
    expect(platformLock('fb', false, trial)).toBe('trial');
    expect(platformLock('yt', false, trial)).toBe('trial');
    expect(platformLock('yt', true, trial)).toBe(null);
    expect(platformLock('twt', false, trial)).toBe(null);
    const paid = { ...trial, trial: false, allowTiktok: false };
    expect(platformLock('tt', false, paid)).toBe('not_allowed');
    expect(platformLock('fb', false, paid)).toBe(null);
  });
  it("locks the instance's own trial list, the allowance flags still counting on and off trial", () => {
    const trial = { trial: true, allowFacebook: true, allowTiktok: false, allowYoutube: true, trialLocked: ['yt', 'ig'] as PlatformCode[] };
    expect(platformLock('yt', false, trial)).toBe('trial');
    expect(platformLock('ig', false, trial)).toBe('trial');
    expect(platformLock('ig', true, trial)).toBe(null);
    expect(platformLock('fb', false, trial)).toBe(null);
    expect(platformLock('tt', false, trial)).toBe('not_allowed');
    expect(platformLock('tt', false, { ...trial, trialLocked: [] })).toBe('not_allowed');
    expect(platformLock('yt', false, { ...trial, trialLocked: [] })).toBe(null);
    // Outside a trial the list does not count.
    expect(platformLock('ig', false, { ...trial, trial: false })).toBe(null);
    expect(platformLock('yt', false, { ...trial, trial: false })).toBe(null);
  });
});

it('parses comma and newline lists', () => {
  expect(parseList(' a, b\n\nc ,')).toEqual(['a', 'b', 'c']);
});
