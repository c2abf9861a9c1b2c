import { describe, expect, it } from 'vitest';
import { trackerFixture } from './fixtures';
import {
  dashboardPath,
  deleteDestination,
  editStorageKey,
  emptyValues,
  hasChanges,
  parseVolumeLimit,
  rememberSearch,
  toInput,
  valuesFromTracker,
} from './tracker-form';

describe('toInput', () => {
  it('drops blanks, strips @ and leaves the title out when blank', () => {
    const v = emptyValues();
    v.rows = [{ type: '+', searches: [' @nasa ', ''] }, { type: '+', searches: ['', ''] }, { type: '-', searches: ['x'] }];
    v.platforms.twt = 1;
    v.excludeRetweets = true;
    v.countryLocations = 'us, fr';
    v.usernames.twt = 'a, b';
    const input = toInput(v);
    expect(input.search.rows).toEqual([{ type: '+', searches: ['nasa'] }, { type: '-', searches: ['x'] }]);
    expect(input.title).toBeUndefined();
    expect(input.excludeRetweets).toBe(true);
    expect(input.countryLocations).toEqual(['US', 'FR']);
    expect(input.usernames?.twt).toEqual(['a', 'b']);
    expect(input.volumeLimit).toBeNull();
    expect(input.language).toBeNull();
  });

  it('sends exclude retweets only with twitter on', () => {
    const v = emptyValues();
    v.excludeRetweets = true;
    v.platforms.news = 1;
    expect(toInput(v).excludeRetweets).toBe(false);
  });
});

describe('edit round trip', () => {
  it('a tracker loaded into the form is unchanged until edited', () => {
    const t = trackerFixture();
    const saved = valuesFromTracker(t);
    const current = valuesFromTracker(t);
    expect(hasChanges(current, saved)).toBe(false);
    expect(toInput(saved).subtrackers).toEqual(['cargo']);
    expect(toInput(saved).volumeLimit).toBe(5000);
    current.rows = [{ type: '+', searches: ['rust', 'rustlang', ''] }, ...current.rows.slice(1)];
    expect(hasChanges(current, saved)).toBe(false); // a blank input is not a change
    current.rows[0].searches[2] = 'ferris';
    expect(hasChanges(current, saved)).toBe(true);
  });
});

it('parses the volume limit', () => {
  expect(parseVolumeLimit('')).toBeNull();
  expect(parseVolumeLimit(' 1000 ')).toBe(1000);
  expect(parseVolumeLimit('-3')).toBe('invalid');
  expect(parseVolumeLimit('0')).toBe('invalid');
  expect(parseVolumeLimit('1e3')).toBe('invalid');
});

it('remembers the search under hark.edit.{hash}', () => {
  const store = new Map<string, string>();
  rememberSearch({ setItem: (k, v) => void store.set(k, v) }, trackerFixture());
  expect(editStorageKey('abc123')).toBe('hark.edit.abc123');
  expect(JSON.parse(store.get('hark.edit.abc123')!).search.rows[0].searches).toEqual(['rust', 'rustlang']);
});

describe('delete destination', () => {
  it('goes to the tracker list by default', () => {
    expect(deleteDestination({ referrer: '', fromSettingsArea: false, kind: 'ht' })).toBe('/mytracks/hashtag');
  });
  it('goes back to creation when the referrer contains from', () => {
    expect(deleteDestination({ referrer: 'http://x/dash?from=new', fromSettingsArea: false, kind: 'ht' })).toBe('/new/ht/step1');
    expect(deleteDestination({ referrer: 'http://x/dash?from=new', fromSettingsArea: false, kind: 'sl' })).toBe('/new/sl/step1');
  });
  it('goes to the account list from the settings area', () => {
    expect(deleteDestination({ referrer: 'http://x/?from=1', fromSettingsArea: true, kind: 'ht' })).toBe('/mytracks/account');
  });
});

it('builds the dashboard path', () => {
  expect(dashboardPath({ hash: 'abc', friendly: 'my-tracker' })).toBe('/hashtag-tracking/dashboard/abc/my-tracker');
});
