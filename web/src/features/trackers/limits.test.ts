import { describe, expect, it } from 'vitest';
import { meFixture } from './fixtures';
import { accessOf, limitsOf } from './limits';

describe('limitsOf', () => {
  it("takes the account's limits, a limit of no excluded terms included", () => {
    expect(limitsOf(meFixture({ maxSearches: 3, maxIgnored: 1 }))).toEqual({ maxSearches: 3, maxIgnored: 1 });
    expect(limitsOf(meFixture({ maxSearches: 20, maxIgnored: 0 }))).toEqual({ maxSearches: 20, maxIgnored: 0 });
  });

  it('falls back to 5 and 5 without an account', () => {
    expect(limitsOf(undefined)).toEqual({ maxSearches: 5, maxIgnored: 5 });
  });
});

describe('accessOf', () => {
  it('carries the trial, the platform allowances and the trial-locked platforms', () => {
    expect(accessOf(meFixture({ trial: true, allowTiktok: false }))).toEqual({
      trial: true, allowFacebook: true, allowTiktok: false, allowYoutube: true, trialLocked: ['tt', 'fb', 'yt'],
    });
    expect(accessOf(undefined)).toEqual({ trial: false, allowFacebook: false, allowTiktok: false, allowYoutube: false, trialLocked: ['tt', 'fb', 'yt'] });
  });

  it("takes the trial-locked platforms from the instance's catalogue (GET /me)", () => {
    expect(accessOf(meFixture({ trial: true, trialLockedPlatforms: ['tt'] })).trialLocked).toEqual(['tt']);
    expect(accessOf(meFixture({ trial: true, trialLockedPlatforms: [] })).trialLocked).toEqual([]);
  });
});
