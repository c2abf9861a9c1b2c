import { describe, expect, it } from 'vitest';
import type { Me, PlatformFlags } from '../api/types';
import { allowedPages, availablePlatforms, computeAccess, pageAvailable, selectedPlatforms, togglePlatform, TRIAL_LOCKED, trialLockedPlatforms } from './access';

const flags = (on: string[]): PlatformFlags =>
  Object.fromEntries(['twt', 'ig', 'yt', 'fb', 'tt', 'news', 'blogs', 'forums', 'bsky', 'mastodon'].map((c) => [c, on.includes(c) ? 1 : 0])) as PlatformFlags;

const me = (p: Partial<Me>): Me => ({
  isLoggedIn: true,
  id: 1,
  email: 'a@b.c',
  name: 'A',
  isAdmin: false,
  trial: false,
  trialExpires: null,
  plan: 0,
  isPaidUser: true,
  maxSearches: 5,
  maxIgnored: 5,
  allowFacebook: true,
  allowTiktok: true,
  allowYoutube: true,
  isTrackerOwner: false,
  permission: 0,
  csrfToken: 't',
  trialExpired: false,
  trialDays: 14,
  trialLockedPlatforms: ['tt', 'fb', 'yt'],
  features: { xls: true, linkSharing: true, mediaWall: true },
  ...p,
});

describe('page availability', () => {
  it('needs a platform other than news/blogs/forums and one the page allows', () => {
    expect(pageAvailable('trending-topics', flags(['news', 'blogs']))).toBe(false);
    expect(pageAvailable('trending-topics', flags(['news', 'tt']))).toBe(true);
    expect(pageAvailable('sentiment', flags(['tt', 'yt']))).toBe(false);
    expect(pageAvailable('sentiment', flags(['fb']))).toBe(true);
    expect(pageAvailable('media-wall', flags(['yt']))).toBe(true);
    // Bluesky and Mastodon posts carry images and video too.
    expect(pageAvailable('media-wall', flags(['bsky', 'news']))).toBe(true);
    expect(pageAvailable('media-wall', flags(['news', 'blogs']))).toBe(false);
    expect(pageAvailable('posts', flags(['news']))).toBe(true);
  });

  it('limits platforms to what the page supports', () => {
    expect(availablePlatforms('sentiment', flags(['twt', 'yt', 'news']))).toEqual(['twt']);
    expect(availablePlatforms('posts', flags(['twt', 'yt', 'news']))).toEqual(['twt', 'yt', 'news']);
    expect(selectedPlatforms(null, 'posts', flags(['twt', 'ig']))).toEqual(['twt', 'ig']);
    expect(selectedPlatforms(['ig', 'fb'], 'posts', flags(['twt', 'ig']))).toEqual(['ig']);
    expect(selectedPlatforms(['fb'], 'posts', flags(['twt', 'ig']))).toEqual(['twt', 'ig']);
  });
});

describe('trialLockedPlatforms', () => {
  it("takes the instance's list from GET /me, leaving out codes this app does not know", () => {
    expect(trialLockedPlatforms(me({ trialLockedPlatforms: ['yt'] }))).toEqual(['yt']);
    expect(trialLockedPlatforms(me({ trialLockedPlatforms: ['tt', 'smoke-signals', 'ig'] }))).toEqual(['tt', 'ig']);
    expect(trialLockedPlatforms(me({ trialLockedPlatforms: [] }))).toEqual([]);
  });
  it('falls back to tiktok, facebook and youtube while /me has not loaded or does not say', () => {
    expect(TRIAL_LOCKED).toEqual(['tt', 'fb', 'yt']);
    expect(trialLockedPlatforms(undefined)).toEqual(['tt', 'fb', 'yt']);
    expect(trialLockedPlatforms({})).toEqual(['tt', 'fb', 'yt']);
  });
});

describe('togglePlatform', () => {
  const f = flags(['twt', 'ig', 'news']);
  it('unchecks and checks', () => {
    expect(togglePlatform(['twt', 'ig', 'news'], 'ig', 'posts', f)).toEqual({ selection: ['twt', 'news'], reverted: false });
    expect(togglePlatform(['news'], 'twt', 'posts', f)).toEqual({ selection: ['twt', 'news'], reverted: false });
  });
  it('reverts unchecking the last checked platform', () => {
    expect(togglePlatform(['ig'], 'ig', 'posts', f)).toEqual({ selection: ['ig'], reverted: true });
  });
  it('refuses platforms the tracker does not have', () => {
    expect(togglePlatform(['ig'], 'fb', 'posts', f)).toEqual({ selection: ['ig'], reverted: true });
  });
});

describe('computeAccess', () => {
  const tracker = { permission: 0, isOwner: false, unlockDate: false };
  it('signed-out visitor sees a limited view', () => {
    const a = computeAccess({ ...me({}), isLoggedIn: false }, tracker, { demo: false, embed: false });
    expect(a.canEditTracker).toBe(false);
    expect(a.canSeeSettings).toBe(false);
    expect(a.canSeeHistorical).toBe(false);
    expect(a.canEditDates).toBe(false);
    expect(a.canSwitchTrackers).toBe(false);
  });
  it('demo mode shows the edit link', () => {
    expect(computeAccess(undefined, tracker, { demo: true, embed: false }).canEditTracker).toBe(true);
  });
  it('owner gets everything', () => {
    const a = computeAccess(me({ isTrackerOwner: true, permission: 4 }), { ...tracker, permission: 4, isOwner: true }, { demo: false, embed: false });
    expect(a).toMatchObject({ canEditTracker: true, canSeeSettings: true, canSeeHistorical: true, canEditDates: true, canManage: true, canSwitchTrackers: true });
  });
  it('administrator permission counts for settings; viewer and editor do not', () => {
    expect(computeAccess(me({ permission: 3 }), tracker, { demo: false, embed: false }).canSeeSettings).toBe(true);
    const editor = computeAccess(me({ permission: 2 }), tracker, { demo: false, embed: false });
    expect(editor.canSeeSettings).toBe(false);
    expect(editor.canSeeHistorical).toBe(true);
    const viewer = computeAccess(me({ permission: 1 }), tracker, { demo: false, embed: false });
    expect(viewer.canSeeHistorical).toBe(false);
    expect(viewer.canEditDates).toBe(false);
  });
  it('editors edit the tracker; only owners and administrators manage it and its team', () => {
    const viewer = computeAccess(me({ permission: 1 }), { ...tracker, permission: 1 }, { demo: false, embed: false });
    expect(viewer).toMatchObject({ canEditTracker: false, canSeeHistorical: false, canManage: false, canManageTeam: false });
    const editor = computeAccess(me({ permission: 2 }), { ...tracker, permission: 2 }, { demo: false, embed: false });
    expect(editor).toMatchObject({ canEditTracker: true, canSeeHistorical: true, canManage: false, canManageTeam: false });
    const admin = computeAccess(me({ permission: 3 }), { ...tracker, permission: 3 }, { demo: false, embed: false });
    expect(admin).toMatchObject({ canEditTracker: true, canManage: true, canManageTeam: true, canSwitchTrackers: false });
    const owner = computeAccess(me({ permission: 4, isTrackerOwner: true }), { ...tracker, permission: 4, isOwner: true }, { demo: false, embed: false });
    expect(owner.canManageTeam).toBe(true);
  });
  it('no team in demo mode, on the demo tracker or through a share link', () => {
    const owner = me({ permission: 4, isTrackerOwner: true });
    const own = { ...tracker, permission: 4, isOwner: true };
    expect(computeAccess(owner, own, { demo: true, embed: false }).canManageTeam).toBe(false);
    expect(computeAccess(owner, { ...own, isDemo: true }, { demo: false, embed: false }).canManageTeam).toBe(false);
    const visitor = computeAccess({ ...me({}), isLoggedIn: false }, { ...tracker, permission: 1, shared: true }, { demo: false, embed: false });
    expect(visitor).toMatchObject({ canManageTeam: false, canEditTracker: false });
  });
  it('an unlocked date range is editable by anyone', () => {
    expect(computeAccess(undefined, { ...tracker, unlockDate: true }, { demo: false, embed: false }).canEditDates).toBe(true);
  });
  it('a shared-link visitor gets what the link allows', () => {
    const visitor = { ...me({}), isLoggedIn: false };
    const closed = { ...tracker, permission: 1, shared: true, linkSharing: { editDateRange: false, exportReports: false, viewPredictions: false } };
    const a = computeAccess(visitor, closed, { demo: false, embed: false });
    expect(a).toMatchObject({ shared: true, canManage: false, canEditDates: false, canViewPredictions: false, canDownload: false, canSeeHistorical: false });
    const open = { ...closed, linkSharing: { editDateRange: true, exportReports: true, viewPredictions: true } };
    expect(computeAccess(visitor, open, { demo: false, embed: false })).toMatchObject({ canEditDates: true, canViewPredictions: true, canDownload: true, canManage: false });
    // The tracker's own unlock opens the dates to the visitor too.
    expect(computeAccess(visitor, { ...closed, unlockDate: true }, { demo: false, embed: false }).canEditDates).toBe(true);
  });
  it('embeds: owners and administrators, viewers when the tracker shares exports, a link with Export reports; never in a frame', () => {
    const flags = { demo: false, embed: false };
    const owner = computeAccess(me({ permission: 4, isTrackerOwner: true }), { ...tracker, permission: 4, isOwner: true }, flags);
    expect(owner.canEmbed).toBe(true);
    expect(computeAccess(me({ permission: 3 }), { ...tracker, permission: 3 }, flags).canEmbed).toBe(true);
    expect(computeAccess(me({ permission: 2 }), { ...tracker, permission: 2 }, flags).canEmbed).toBe(false);
    expect(computeAccess(me({ permission: 1 }), { ...tracker, permission: 1 }, flags).canEmbed).toBe(false);
    expect(computeAccess(me({ permission: 1 }), { ...tracker, permission: 1, shareExports: true }, flags).canEmbed).toBe(true);
    const visitor = { ...me({}), isLoggedIn: false };
    const link = (exportReports: boolean) => ({ ...tracker, permission: 1, shared: true, linkSharing: { editDateRange: false, exportReports, viewPredictions: false } });
    expect(computeAccess(visitor, link(false), flags).canEmbed).toBe(false);
    expect(computeAccess(visitor, link(true), flags).canEmbed).toBe(true);
    // Signed out without a link: nothing, whatever the tracker shares.
    expect(computeAccess(visitor, { ...tracker, permission: 0, shareExports: true }, flags).canEmbed).toBe(false);
    expect(computeAccess(me({ permission: 4, isTrackerOwner: true }), { ...tracker, permission: 4, isOwner: true }, { demo: false, embed: true }).canEmbed).toBe(false);
  });
  it('exports: the same callers as embeds, and inside a frame too (where the menu shows disabled)', () => {
    const flags = { demo: false, embed: false };
    const of = (m: Me, t: Parameters<typeof computeAccess>[1], f = flags) => computeAccess(m, t, f).canExport;
    expect(of(me({ permission: 4, isTrackerOwner: true }), { ...tracker, permission: 4, isOwner: true })).toBe(true);
    expect(of(me({ permission: 3 }), { ...tracker, permission: 3 })).toBe(true);
    expect(of(me({ permission: 2 }), { ...tracker, permission: 2 })).toBe(false);
    expect(of(me({ permission: 1 }), { ...tracker, permission: 1 })).toBe(false);
    expect(of(me({ permission: 1 }), { ...tracker, permission: 1, shareExports: true })).toBe(true);
    const visitor = { ...me({}), isLoggedIn: false };
    const link = (exportReports: boolean) => ({ ...tracker, permission: 1, shared: true, linkSharing: { editDateRange: false, exportReports, viewPredictions: false } });
    expect(of(visitor, link(false))).toBe(false);
    expect(of(visitor, link(true))).toBe(true);
    expect(of(visitor, { ...tracker, permission: 0, shareExports: true })).toBe(false);
    expect(of(me({ permission: 4, isTrackerOwner: true }), { ...tracker, permission: 4, isOwner: true }, { demo: false, embed: true })).toBe(true);
  });
  it('link-sharing toggles do not limit a caller with access of their own', () => {
    const viewer = computeAccess(me({ permission: 1 }), { ...tracker, permission: 1, shared: false, linkSharing: { editDateRange: false, exportReports: false, viewPredictions: false } }, { demo: false, embed: false });
    expect(viewer).toMatchObject({ shared: false, canViewPredictions: true, canDownload: true, canEditDates: false });
  });
});

describe('a moderation link (moderationKey)', () => {
  const tracker = { permission: 0, isOwner: false, unlockDate: false };
  const signedOut = { ...me({}), isLoggedIn: false, permission: 0, isTrackerOwner: false, isAdmin: false };
  const withKey = { demo: false, embed: false, moderationKey: true };

  // The server answers the key holder as a link visitor: shared, reading as a viewer.
  const keyed = { ...tracker, permission: 1, shared: true };

  it('limits a signed-out key holder to the media wall, with nothing to manage', () => {
    const a = computeAccess(signedOut, keyed, withKey);
    expect(a).toMatchObject({
      moderationOnly: true,
      canEditTracker: false,
      canSeeSettings: false,
      canSeeHistorical: false,
      canManage: false,
      canManageTeam: false,
      canSwitchTrackers: false,
      canExport: false,
      canEmbed: false,
    });
    expect(allowedPages(a)).toEqual(['media-wall']);
    // While GET /me loads the tracker's own fields decide.
    expect(computeAccess(undefined, keyed, withKey).moderationOnly).toBe(true);
    expect(computeAccess(signedOut, tracker, withKey).moderationOnly).toBe(true);
  });

  it('limits a signed-in caller without access of their own too', () => {
    expect(computeAccess(me({ permission: 0, isTrackerOwner: false, isAdmin: false }), keyed, withKey).moderationOnly).toBe(true);
  });

  it('does not limit callers with access of their own, a share link, or the demo', () => {
    expect(computeAccess(me({ permission: 4, isTrackerOwner: true }), { ...tracker, permission: 4, isOwner: true }, withKey).moderationOnly).toBe(false);
    expect(computeAccess(me({ permission: 1, isTrackerOwner: false, isAdmin: false }), { ...tracker, permission: 1 }, withKey).moderationOnly).toBe(false);
    expect(computeAccess(me({ permission: 0, isTrackerOwner: false, isAdmin: true }), tracker, withKey).moderationOnly).toBe(false);
    expect(computeAccess(undefined, { ...tracker, permission: 2 }, withKey).moderationOnly).toBe(false);
    expect(computeAccess(signedOut, keyed, { ...withKey, shareHash: true }).moderationOnly).toBe(false);
    expect(computeAccess(signedOut, keyed, { ...withKey, demo: true }).moderationOnly).toBe(false);
  });

  it('does nothing without a key', () => {
    const a = computeAccess(signedOut, tracker, { demo: false, embed: false });
    expect(a.moderationOnly).toBe(false);
    expect(allowedPages(a)).toBeNull();
  });
});
