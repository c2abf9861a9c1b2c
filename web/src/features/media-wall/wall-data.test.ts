import { describe, expect, it } from 'vitest';
import { emptyState } from '../../state/query-state';
import {
  arrivedKeys,
  cardTitle,
  clampFrequency,
  DEFAULT_SETTINGS,
  grownCount,
  imageSource,
  isCarousel,
  isVideo,
  matchesVisibility,
  nextImageStage,
  nextIndex,
  nextRefreshSeconds,
  normalizeSettings,
  parseUsernames,
  previousIndex,
  pruneSelection,
  settingsToForm,
  slideshowNext,
  timeAgo,
  toggleAll,
  toggleKey,
  validateSettingsForm,
  wallQuery,
  wallView,
  type SettingsForm,
} from './wall-data';

describe('refresh pace', () => {
  it('keeps the interval within 20 to 120 seconds, 30 when unreadable', () => {
    expect(clampFrequency(30)).toBe(30);
    expect(clampFrequency(5)).toBe(20);
    expect(clampFrequency(600)).toBe(120);
    expect(clampFrequency(44.6)).toBe(45);
    expect(clampFrequency(NaN)).toBe(30);
    expect(clampFrequency(undefined)).toBe(30);
  });

  it('shortens by 5 s when new posts arrived and lengthens by 5 s when none did', () => {
    expect(nextRefreshSeconds(30, true)).toBe(25);
    expect(nextRefreshSeconds(30, false)).toBe(35);
    expect(nextRefreshSeconds(20, true)).toBe(20);
    expect(nextRefreshSeconds(22, true)).toBe(20);
    expect(nextRefreshSeconds(120, false)).toBe(120);
    expect(nextRefreshSeconds(118, false)).toBe(120);
  });

  it('finds the posts a refresh brought, none on the first load', () => {
    expect(arrivedKeys(null, ['a', 'b'])).toEqual([]);
    expect(arrivedKeys(['a', 'b'], ['c', 'a', 'b'])).toEqual(['c']);
    expect(arrivedKeys(['a', 'b'], ['a'])).toEqual([]);
  });
});

describe('settings', () => {
  const form = (over: Partial<SettingsForm> = {}): SettingsForm => ({ ...settingsToForm(DEFAULT_SETTINGS), ...over });

  it('shows the saved settings in the form and saves them back unchanged', () => {
    const saved = { ...DEFAULT_SETTINGS, excludeUsers: ['alice', 'bob'], postCount: 120, theme: 'light' as const };
    const f = settingsToForm(saved);
    expect(f.excludeUsers).toBe('alice, bob');
    expect(f.postCount).toBe('120');
    expect(validateSettingsForm(f)).toEqual({ settings: saved, errors: null });
  });

  it('reads excluded users however they are typed', () => {
    expect(parseUsernames('@alice, bob\n  carol  @@dave,,')).toEqual(['alice', 'bob', 'carol', 'dave']);
    expect(parseUsernames('Alice alice ALICE')).toEqual(['Alice']);
    expect(parseUsernames('  ')).toEqual([]);
  });

  it('refuses an update frequency outside 20–120 s and a post count outside 1–500', () => {
    expect(validateSettingsForm(form({ updateFrequency: '19' })).errors?.updateFrequency).toMatch(/20 to 120/);
    expect(validateSettingsForm(form({ updateFrequency: '121' })).errors?.updateFrequency).toBeDefined();
    expect(validateSettingsForm(form({ updateFrequency: '30.5' })).errors?.updateFrequency).toBeDefined();
    expect(validateSettingsForm(form({ updateFrequency: '' })).errors?.updateFrequency).toBeDefined();
    expect(validateSettingsForm(form({ postCount: '0' })).errors?.postCount).toMatch(/1 to 500/);
    expect(validateSettingsForm(form({ postCount: '501' })).errors?.postCount).toBeDefined();
    const ok = validateSettingsForm(form({ updateFrequency: ' 20 ', postCount: '500' }));
    expect(ok.settings).toMatchObject({ updateFrequency: 20, postCount: 500 });
  });

  it('refuses more than 100 excluded users or a name over 100 characters', () => {
    const many = Array.from({ length: 101 }, (_, i) => `user${i}`).join(',');
    expect(validateSettingsForm(form({ excludeUsers: many })).errors?.excludeUsers).toMatch(/at most 100 users/);
    expect(validateSettingsForm(form({ excludeUsers: 'x'.repeat(101) })).errors?.excludeUsers).toMatch(/100 characters/);
    expect(validateSettingsForm(form({ excludeUsers: 'x'.repeat(100) })).errors).toBeNull();
  });

  it('fills in what the server left out or sent out of range', () => {
    expect(normalizeSettings(null)).toEqual(DEFAULT_SETTINGS);
    expect(normalizeSettings({ displayMode: 'slideshow', updateFrequency: 3, postCount: 9000 })).toEqual({
      ...DEFAULT_SETTINGS,
      displayMode: 'slideshow',
      updateFrequency: 20,
      postCount: 500,
    });
  });
});

describe('the view', () => {
  const saved = { ...DEFAULT_SETTINGS, displayMode: 'slideshow' as const, theme: 'light' as const, displayText: false };

  it('shows the saved look unless the address overrides a part of it', () => {
    const none = emptyState().mediaWall;
    expect(wallView(saved, none, false)).toEqual({ displayMode: 'slideshow', theme: 'light', displayText: false });
    expect(wallView(saved, { ...none, theme: 'dark', displayText: true }, false)).toEqual({ displayMode: 'slideshow', theme: 'dark', displayText: true });
  });

  it('an embed keeps to the saved look', () => {
    expect(wallView(saved, { ...emptyState().mediaWall, theme: 'dark', displayMode: 'grid' }, true)).toEqual({
      displayMode: 'slideshow',
      theme: 'light',
      displayText: false,
    });
  });

  it('asks only for what differs from the saved settings', () => {
    const base = { platforms: ['twt', 'ig'] as const, subtracker: null, search: '', visibility: 1 as const, excludeUsers: null, count: null };
    expect(wallQuery({ ...base, platforms: ['twt', 'ig'] })).toEqual({ platforms: 'twt,ig' });
    expect(
      wallQuery({ ...base, platforms: ['twt'], subtracker: 2, search: '  sunset beach ', visibility: -1, excludeUsers: ['a', 'b'], count: 100 }),
    ).toEqual({ platforms: 'twt', subtracker: 2, search: 'sunset beach', visibility: -1, excludeUsers: 'a,b', count: 100 });
    expect(wallQuery({ ...base, platforms: ['twt'], search: 'x'.repeat(300) }).search).toHaveLength(200);
  });

  it('filters by visibility: public, hidden, or both (never the queue)', () => {
    expect(matchesVisibility(1, 1)).toBe(true);
    expect(matchesVisibility(0, 1)).toBe(false);
    expect(matchesVisibility(0, 0)).toBe(true);
    expect(matchesVisibility(1, -1)).toBe(true);
    expect(matchesVisibility(0, -1)).toBe(true);
    expect(matchesVisibility(2, -1)).toBe(false);
  });
});

describe('selection', () => {
  it('adds and removes one post', () => {
    const a = toggleKey(new Set(), 'twt;1', true);
    expect([...a]).toEqual(['twt;1']);
    expect([...toggleKey(a, 'twt;1', false)]).toEqual([]);
  });

  it('selects every post, or none when all are selected', () => {
    expect([...toggleAll(new Set(['a']), ['a', 'b'])]).toEqual(['a', 'b']);
    expect([...toggleAll(new Set(['a', 'b']), ['a', 'b'])]).toEqual([]);
    expect([...toggleAll(new Set(), [])]).toEqual([]);
  });

  it('forgets posts no longer shown, keeping the same set when nothing changed', () => {
    const sel = new Set(['a', 'b']);
    expect(pruneSelection(sel, ['a', 'b', 'c'])).toBe(sel);
    expect([...pruneSelection(sel, ['b'])]).toEqual(['b']);
  });
});

describe('media', () => {
  const photo = { url: '/demo-media/a.jpg', thumbnailUrl: '/demo-media/a-thumb.jpg' };

  it('falls back once to the thumbnail, then gives up', () => {
    expect(imageSource('main', photo)).toBe('/demo-media/a.jpg');
    const second = nextImageStage('main', photo);
    expect(second).toBe('thumbnail');
    expect(imageSource(second, photo)).toBe('/demo-media/a-thumb.jpg');
    expect(nextImageStage(second, photo)).toBe('failed');
    expect(imageSource('failed', photo)).toBeNull();
  });

  it('gives up at once without a thumbnail, or with one that is the same image', () => {
    expect(nextImageStage('main', { url: 'a', thumbnailUrl: null })).toBe('failed');
    expect(nextImageStage('main', { url: 'a', thumbnailUrl: 'a' })).toBe('failed');
  });

  it('tells videos from images', () => {
    expect(isVideo({ kind: 'video', url: 'x' })).toBe(true);
    expect(isVideo({ kind: 'reel', url: 'x' })).toBe(true);
    expect(isVideo({ kind: 'gif', url: 'https://v/x.mp4' })).toBe(true);
    expect(isVideo({ kind: 'gif', url: 'https://v/x.gif' })).toBe(false);
    expect(isVideo({ kind: 'photo', url: 'x.mp4' })).toBe(false);
  });

  it('turns the media of a post with several, round and round', () => {
    const m = { kind: 'carousel' as const, url: 'x', thumbnailUrl: null };
    expect(isCarousel({ media: [m, m] })).toBe(true);
    expect(isCarousel({ media: [m] })).toBe(false);
    expect(nextIndex(0, 3)).toBe(1);
    expect(nextIndex(2, 3)).toBe(0);
    expect(previousIndex(0, 3)).toBe(2);
    expect(nextIndex(0, 0)).toBe(0);
  });
});

describe('slideshow', () => {
  it('steps through the loaded posts', () => {
    expect(slideshowNext(0, 50, 50)).toEqual({ index: 1, grow: false });
    expect(slideshowNext(48, 50, 50)).toEqual({ index: 49, grow: false });
  });

  it('asks for 50 more at the end while the wall may hold more', () => {
    expect(slideshowNext(49, 50, 50)).toEqual({ index: 49, grow: true });
    expect(grownCount(50)).toBe(100);
    expect(grownCount(480)).toBe(500);
  });

  it('starts over when the tracker has no more posts or 500 are shown', () => {
    expect(slideshowNext(11, 12, 50)).toEqual({ index: 0, grow: false });
    expect(slideshowNext(499, 500, 500)).toEqual({ index: 0, grow: false });
    expect(slideshowNext(0, 1, 50)).toEqual({ index: 0, grow: false });
  });
});

describe('timeAgo', () => {
  const now = Date.UTC(2026, 4, 10, 12);
  it('says how long ago, then the day', () => {
    expect(timeAgo(now - 10_000, now)).toBe('now');
    expect(timeAgo(now - 5 * 60_000, now)).toBe('5m');
    expect(timeAgo(now - 3 * 3_600_000, now)).toBe('3h');
    expect(timeAgo(now - 2 * 86_400_000, now)).toBe('2d');
    expect(timeAgo(Date.UTC(2026, 3, 1, 12), now)).toBe('Apr 1');
  });
});

describe('cardTitle', () => {
  it('shows a title the text does not already open with', () => {
    expect(cardTitle({ title: 'Best almond croissant in Lyon', text: 'We tried six bakeries.' })).toBe('Best almond croissant in Lyon');
    expect(cardTitle({ title: '  Morning brew ', text: 'morning brew, then the rest of the caption' })).toBeNull();
    expect(cardTitle({ title: null, text: 'no title' })).toBeNull();
    expect(cardTitle({ title: '   ', text: 'blank title' })).toBeNull();
  });
});
