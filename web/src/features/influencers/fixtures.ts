// Sample rows and posts for the influencers page tests.
import type { InfluencerRow } from '../../api/queries/influencers';
import type { PostItem } from '../../api/queries/posts';

export function row(over: Partial<InfluencerRow> = {}): InfluencerRow {
  return {
    key: 'twitter;alice',
    platform: 'twitter',
    author: 'alice',
    name: 'Alice',
    username: 'alice',
    avatarUrl: null,
    profileUrl: null,
    bio: null,
    location: null,
    verified: false,
    posts: 1,
    engagement: 1,
    avgEngagement: 1,
    followers: 1,
    reach: 1,
    engagementRate: null,
    impressions: null,
    tags: [],
    anonymized: false,
    ...over,
  };
}

export function postItem(n: number, over: Partial<PostItem> = {}): PostItem {
  return {
    key: `twitter;p${n}`,
    post: { platform: 'twitter', id: `p${n}`, text: `Post number ${n}`, author: { username: 'alice', name: 'Alice' }, createdAt: Date.UTC(2024, 0, n), counts: {}, flags: {} },
    sentiment: 0,
    sentimentBucket: 'neutral',
    sentimentEdited: false,
    sentimentMethod: 'model',
    engagement: n * 10,
    engagementRate: 1.25,
    reach: n * 100,
    impressions: 0,
    country: null,
    postType: 'original',
    isNew: false,
    anonymized: false,
    indirectMatch: false,
    tags: [],
    ...over,
  };
}
