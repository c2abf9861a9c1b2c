import type { Me } from '../../api/types';
import { trialLockedPlatforms } from '../../state/access';
import { DEFAULT_MAX_SEARCHES, type BuilderLimits, type TrialAccess } from './search-builder';

/**
 * The builder limits of a user (default max searches 5, ignored 5). An account may be allowed no
 * excluded terms at all (0), as the server holds it to.
 */
export function limitsOf(me: Me | undefined): BuilderLimits {
  return {
    maxSearches: me?.maxSearches && me.maxSearches > 0 ? me.maxSearches : DEFAULT_MAX_SEARCHES,
    maxIgnored: me && me.maxIgnored >= 0 ? me.maxIgnored : 5,
  };
}

export function accessOf(me: Me | undefined): TrialAccess {
  return {
    trial: Boolean(me?.trial),
    allowFacebook: me?.allowFacebook ?? false,
    allowTiktok: me?.allowTiktok ?? false,
    allowYoutube: me?.allowYoutube ?? false,
    trialLocked: trialLockedPlatforms(me),
  };
}
