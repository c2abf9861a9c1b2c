import { describe, expect, it } from 'vitest';
import {
  applyTagFilters,
  clearWallOverrides,
  setWallVisibility,
  clearTagFilters,
  defaultDays,
  emptyState,
  keepOnNavigation,
  keepShareAndDemo,
  parseQuery,
  removeInfluencerTag,
  removeTag,
  resetInfluencerFilters,
  resetPostFilters,
  setAction,
  serializeQuery,
  setCustomRange,
  setDays,
  setPage,
  setPlatforms,
  setSearch,
  setSort,
  setSubtracker,
  toggleSentiment,
} from './query-state';

describe('parseQuery', () => {
  it('gives defaults for an empty query', () => {
    const s = parseQuery('');
    expect(s).toEqual(emptyState());
    expect(s.postTagFilterMode).toBe('all');
    expect(s.influencerTagFilterMode).toBe('all');
    expect(s.page).toBe(1);
    expect(s.perPage).toBe(25);
    expect(s.view).toBe('list');
  });

  it('reads platforms as a comma list of known codes in canonical order', () => {
    expect(parseQuery('platforms=ig,twt,bogus').platforms).toEqual(['twt', 'ig']);
    expect(parseQuery('platforms=bogus').platforms).toBeNull();
  });

  it('reads days and custom ranges; custom wins; reversed ranges are swapped', () => {
    expect(parseQuery('days=7').date).toEqual({ kind: 'days', days: 7 });
    expect(parseQuery('days=0').date).toBeNull();
    expect(parseQuery('days=abc').date).toBeNull();
    expect(parseQuery('days=7&start=2024-01-02&end=2024-01-09').date).toEqual({
      kind: 'custom',
      start: '2024-01-02',
      end: '2024-01-09',
    });
    expect(parseQuery('start=2024-02-09&end=2024-02-01').date).toEqual({
      kind: 'custom',
      start: '2024-02-01',
      end: '2024-02-09',
    });
    expect(parseQuery('start=2024-02-30&end=2024-03-01').date).toBeNull();
  });

  it('reads paging, sort, view, sentiment and post filters', () => {
    const s = parseQuery(
      'page=3&perPage=50&sort=engagement;asc&view=card&sentiment=negative,positive,meh&search=rust&excludeRT=1&igStoryOnly=true',
    );
    expect(s.page).toBe(3);
    expect(s.perPage).toBe(50);
    expect(s.sort).toEqual({ type: 'engagement', direction: 'asc' });
    expect(s.view).toBe('card');
    expect(s.sentiment).toEqual(['positive', 'negative']);
    expect(s.search).toBe('rust');
    expect(s.excludeRT).toBe(true);
    expect(s.igStoryOnly).toBe(true);
    expect(parseQuery('page=-2&view=grid').page).toBe(1);
    expect(parseQuery('view=grid').view).toBe('list');
  });

  it('reads influencer filters with lesser/greater operators', () => {
    const s = parseQuery('bio=chef&location=Paris&followers_count=1000&followers_op=lesser&posts_count=5&impressions_count=x');
    expect(s.influencer.bio).toBe('chef');
    expect(s.influencer.location).toBe('Paris');
    expect(s.influencer.followers).toEqual({ count: 1000, op: 'lesser' });
    expect(s.influencer.posts).toEqual({ count: 5, op: 'greater' });
    expect(s.influencer.impressions).toBeNull();
    expect(s.influencer.engagement).toBeNull();
  });

  it('reads tags, modes, share, demo, embed and dashboard extras', () => {
    const s = parseQuery(
      'postTags=3,1,3,x&postTagFilterMode=any&influencerTags=9&influencerTagFilterMode=bogus&shareHash=abc&demo=true&embed=1&grouping=day&cumulative=1&eridropdown=Reach',
    );
    expect(s.postTags).toEqual([3, 1]);
    expect(s.postTagFilterMode).toBe('any');
    expect(s.influencerTags).toEqual([9]);
    expect(s.influencerTagFilterMode).toBe('all');
    expect(s.shareHash).toBe('abc');
    expect(s.demo).toBe(true);
    expect(s.embed).toBe(true);
    expect(s.grouping).toBe('day');
    expect(s.cumulative).toBe(true);
    expect(s.eridropdown).toBe('Reach');
    expect(parseQuery('embed=true').embed).toBe(true);
    expect(parseQuery('embed=0').embed).toBe(false);
    const e = parseQuery('embed=1&chart=timeline&card=twt%3BLaunch&embedKey=k1');
    expect([e.chart, e.card, e.embedKey]).toEqual(['timeline', 'twt;Launch', 'k1']);
    // An embed's own parameters stay in the address as the page changes its state.
    expect(serializeQuery(e, 'dashboard')).toBe('embed=1&chart=timeline&card=twt%3BLaunch&embedKey=k1');
    expect(parseQuery('grouping=year').grouping).toBeNull();
  });

  it('reads media wall parameters', () => {
    const s = parseQuery('excludeUsers=a,b&displayText=0&theme=light&displayMode=slideshow&visibility=-1&moderationKey=mk');
    expect(s.mediaWall).toEqual({ excludeUsers: ['a', 'b'], displayText: false, theme: 'light', displayMode: 'slideshow', visibility: -1 });
    expect(s.moderationKey).toBe('mk');
  });

  it('leaves the media wall as saved unless the address overrides it', () => {
    expect(parseQuery('').mediaWall).toEqual({ excludeUsers: null, displayText: null, theme: null, displayMode: null, visibility: 1 });
    // Unknown values are no override at all; an empty list is one (exclude nobody).
    expect(parseQuery('theme=sepia&displayMode=wall&visibility=2').mediaWall).toEqual({
      excludeUsers: null,
      displayText: null,
      theme: null,
      displayMode: null,
      visibility: 1,
    });
    expect(parseQuery('excludeUsers=').mediaWall.excludeUsers).toEqual([]);
    expect(parseQuery('displayText=1').mediaWall.displayText).toBe(true);
  });

  it('round-trips media wall overrides and drops them back to the saved view', () => {
    const s = parseQuery('displayText=1&theme=dark&displayMode=grid&visibility=0&moderationKey=mk');
    expect(serializeQuery(s, 'media-wall')).toBe('displayText=1&theme=dark&displayMode=grid&visibility=0&moderationKey=mk');
    expect(serializeQuery(clearWallOverrides(s), 'media-wall')).toBe('visibility=0&moderationKey=mk');
    expect(serializeQuery(setWallVisibility(1)(s), 'media-wall')).toBe('displayText=1&theme=dark&displayMode=grid&moderationKey=mk');
    // The moderation link's key stays as the visitor moves between the tracker's pages.
    expect(keepOnNavigation(s).moderationKey).toBe('mk');
  });
});

describe('serializeQuery', () => {
  it('omits defaults', () => {
    expect(serializeQuery(emptyState(), 'dashboard')).toBe('');
    expect(serializeQuery(setDays(14)(emptyState()), 'dashboard')).toBe('');
    expect(serializeQuery(setDays(30)(emptyState()), 'posts')).toBe('');
    expect(serializeQuery(setDays(30)(emptyState()), 'dashboard')).toBe('days=30');
    expect(serializeQuery(setSort({ type: 'created_at', direction: 'desc' })(emptyState()), 'posts')).toBe('');
    expect(serializeQuery(setSort({ type: 'created_at', direction: 'asc' })(emptyState()), 'posts')).toBe(
      'sort=created_at%3Basc',
    );
  });

  it('round-trips a full state', () => {
    const q =
      'platforms=twt,ig&start=2024-01-02&end=2024-01-09&page=2&perPage=50&sort=reach;asc&view=card&sentiment=positive&search=hello+world&excludeRT=1&igStoryOnly=1&bio=b&followers_count=10&followers_op=lesser&postTags=1,2&postTagFilterMode=any&influencerTags=4&shareHash=s1&demo=true&embed=1&chart=timeline&embedKey=k1&grouping=week&cumulative=1&eridropdown=Impressions';
    const s = parseQuery(q);
    expect(parseQuery(serializeQuery(s, 'posts'))).toEqual(s);
  });

  it('knows the page default windows', () => {
    expect(defaultDays('dashboard')).toBe(14);
    expect(defaultDays('realtime')).toBe(14);
    expect(defaultDays('posts')).toBe(30);
    expect(defaultDays('influencers')).toBe(30);
    expect(defaultDays('sentiment')).toBe(14);
  });
});

describe('updaters', () => {
  it('go back to page 1 on filter and sort changes', () => {
    const s = setPage(4)(emptyState());
    expect(s.page).toBe(4);
    expect(setSearch('x')(s).page).toBe(1);
    expect(setSort({ type: 'reach', direction: 'asc' })(s).page).toBe(1);
    expect(setPlatforms(['twt'])(s).page).toBe(1);
    expect(setDays(7)(s).page).toBe(1);
    expect(toggleSentiment('neutral')(s).page).toBe(1);
  });

  it('do not mutate their input', () => {
    const s = emptyState();
    setSearch('x')(s);
    setPlatforms(['twt'])(s);
    expect(s).toEqual(emptyState());
  });

  it('toggle sentiment buckets in canonical order', () => {
    let s = toggleSentiment('negative')(emptyState());
    s = toggleSentiment('positive')(s);
    expect(s.sentiment).toEqual(['positive', 'negative']);
    expect(toggleSentiment('positive')(s).sentiment).toEqual(['negative']);
  });

  it('set custom ranges only from valid days', () => {
    expect(setCustomRange('2024-01-09', '2024-01-01')(emptyState()).date).toEqual({
      kind: 'custom',
      start: '2024-01-01',
      end: '2024-01-09',
    });
    expect(setCustomRange('nope', '2024-01-01')(emptyState()).date).toBeNull();
  });

  it('apply, clear and prune tag filters', () => {
    let s = applyTagFilters({ postTags: [1, 2], postTagFilterMode: 'any', influencerTags: [5] })(emptyState());
    expect(serializeQuery(s, 'dashboard')).toBe('postTags=1%2C2&postTagFilterMode=any&influencerTags=5');
    s = removeTag(1)(s);
    expect(s.postTags).toEqual([2]);
    s = clearTagFilters(s);
    expect(s.postTags).toEqual([]);
    expect(s.influencerTags).toEqual([]);
    expect(s.postTagFilterMode).toBe('all');
  });

  it('reset influencer filters clears the search and advanced filters, keeping sort and header filters', () => {
    const s = parseQuery('search=a&bio=b&location=c&posts_count=3&posts_op=lesser&sort=reach;asc&page=3&influencerTags=4&days=7');
    const r = resetInfluencerFilters(s);
    expect(r.search).toBe('');
    expect(r.influencer).toEqual(emptyState().influencer);
    expect(r.page).toBe(1);
    expect(r.sort).toEqual({ type: 'reach', direction: 'asc' });
    expect(r.influencerTags).toEqual([4]);
    expect(r.date).toEqual({ kind: 'days', days: 7 });
  });

  it('drop a deleted influencer tag from the filter and clear a one-shot action', () => {
    const s = parseQuery('influencerTags=1,2&postTags=1&action=influencer-tags&page=2');
    const r = removeInfluencerTag(1)(s);
    expect(r.influencerTags).toEqual([2]);
    expect(r.postTags).toEqual([1]);
    expect(r.page).toBe(1);
    expect(setAction(null)(s).action).toBeNull();
  });

  it('reset post filters keeps share, demo and date', () => {
    const s = parseQuery('search=x&sentiment=neutral&excludeRT=1&postTags=1&shareHash=h&demo=true&days=7&page=3');
    const r = resetPostFilters(s);
    expect(serializeQuery(r, 'posts')).toBe('days=7&shareHash=h&demo=true');
  });

  it('keep share, demo and header filters on navigation, and only share/demo on tracker switch', () => {
    const s = parseQuery('search=x&page=3&view=card&platforms=twt&days=7&postTags=2&shareHash=h&demo=true&embed=1');
    expect(serializeQuery(keepOnNavigation(s), 'posts')).toBe('platforms=twt&days=7&postTags=2&shareHash=h&demo=true&embed=1');
    expect(serializeQuery(keepShareAndDemo(s), 'posts')).toBe('shareHash=h&demo=true&embed=1');
  });
});

describe('subtracker', () => {
  it('is read, kept on navigation and written back; out of range values are dropped', () => {
    expect(parseQuery('subtracker=2').subtracker).toBe(2);
    expect(parseQuery('subtracker=0').subtracker).toBeNull();
    expect(parseQuery('subtracker=64').subtracker).toBeNull();
    expect(parseQuery('subtracker=x').subtracker).toBeNull();
    const s = setSubtracker(3)({ ...emptyState(), page: 4 });
    expect(s.page).toBe(1);
    expect(serializeQuery(s, 'dashboard')).toBe('subtracker=3');
    expect(keepOnNavigation(s).subtracker).toBe(3);
    expect(serializeQuery(setSubtracker(null)(s), 'dashboard')).toBe('');
  });
});
