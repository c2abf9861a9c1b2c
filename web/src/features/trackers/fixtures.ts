// Sample data for the tracker page tests.
import type { Me, Tracker } from '../../api/types';

export function trackerFixture(over: Partial<Tracker> = {}): Tracker {
  return {
    id: 1, hash: 'abc123', friendly: 'rust-lang', title: 'Real-time Tracker: rust', status: 'running',
    created: Date.UTC(2024, 0, 2), end: null, lastCached: null, lastPaused: null, firstDataPoint: null,
    platforms: { twt: 1, ig: 0, yt: 0, fb: 0, tt: 0, news: 1, blogs: 0, forums: 0, bsky: 0, mastodon: 0 },
    search: { rows: [{ type: '+', searches: ['rust', 'rustlang'] }, { type: '-', searches: ['game'] }] },
    searchDisplay: '(rust OR rustlang) -game', searchCount: 2, ignoreCount: 1, excludeRetweets: true,
    verifiedUsers: false, verifiedTiktokUsers: false, language: 'en', countryLocations: ['US', 'GB'],
    volumeLimit: 5000, usernames: { twt: ['rustlang'], ig: [], yt: [], fb: [], tt: [], web: [], bsky: [], mastodon: [] },
    ignore: { twt: ['spam'], ig: [], yt: [], fb: [], tt: [], web: [], bsky: [], mastodon: [] }, subtrackers: [{ label: 'cargo', value: 'cargo' }],
    highlights: [], sentimentKeywords: { positive: [], neutral: [], negative: [] }, hideAuthMetrics: false, customConfig: { order: [], columns: 2 }, shareExports: false,
    unlockDate: false, isSubTracker: false, isPreviewMode: false, isDemo: false, totalPosts: 1234,
    linkSharing: { editDateRange: false, exportReports: false, viewPredictions: false }, customUrl: null,
    shareHash: null, lastEditMode: null, permission: 4, isOwner: true, ownerName: 'Ada',
    shared: false,
    anonymizeFacebook: false, isBackfilling: false, reanalysis: null, sentimentModel: null,
    ...over,
  };
}

export function meFixture(over: Partial<Me> = {}): Me {
  return {
    isLoggedIn: true, id: 1, email: 'ada@example.com', name: 'Ada', isAdmin: true, trial: false, trialExpires: null,
    plan: 40, isPaidUser: true, maxSearches: 5, maxIgnored: 5, allowFacebook: true, allowTiktok: true, allowYoutube: true,
    isTrackerOwner: false, permission: 0, csrfToken: 't', trialExpired: false, trialDays: 14, trialLockedPlatforms: ['tt', 'fb', 'yt'],
    features: { xls: true, linkSharing: true, mediaWall: true }, ...over,
  };
}
