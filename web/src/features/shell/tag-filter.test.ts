import { describe, expect, it } from 'vitest';
import { canApplyTags, showTagSearch, visibleTags } from './tag-filter';

const none = { postTags: [], postTagFilterMode: 'all' as const, influencerTags: [], influencerTagFilterMode: 'all' as const };

describe('canApplyTags', () => {
  it('with nothing applied needs at least one selected tag', () => {
    expect(canApplyTags(none, none)).toBe(false);
    expect(canApplyTags(none, { ...none, postTagFilterMode: 'any' })).toBe(false);
    expect(canApplyTags(none, { ...none, postTags: [1] })).toBe(true);
    expect(canApplyTags(none, { ...none, influencerTags: [4] })).toBe(true);
  });
  it('with filters applied needs a different selection or mode', () => {
    const applied = { ...none, postTags: [1, 2] };
    expect(canApplyTags(applied, { ...none, postTags: [2, 1] })).toBe(false);
    expect(canApplyTags(applied, { ...none, postTags: [1] })).toBe(true);
    expect(canApplyTags(applied, { ...none, postTags: [1, 2], postTagFilterMode: 'any' })).toBe(true);
    expect(canApplyTags(applied, { ...none, postTags: [1, 2], influencerTags: [3] })).toBe(true);
    expect(canApplyTags(applied, { ...none, postTags: [1, 2], influencerTagFilterMode: 'any' })).toBe(true);
  });
});

describe('visibleTags', () => {
  const tags = [
    { id: 1, name: 'zebra', color: '#000' },
    { id: 2, name: 'Apple', color: '#000' },
    { id: 3, name: 'banana split', color: '#000' },
  ];
  it('sorts alphabetically and filters case-insensitively by substring', () => {
    expect(visibleTags(tags, '').map((t) => t.name)).toEqual(['Apple', 'banana split', 'zebra']);
    expect(visibleTags(tags, 'AN').map((t) => t.name)).toEqual(['banana split']);
    expect(visibleTags(tags, 'e').map((t) => t.name)).toEqual(['Apple', 'zebra']);
    expect(visibleTags(tags, 'nope')).toEqual([]);
  });
  it('shows search only with more than one tag', () => {
    expect(showTagSearch(tags)).toBe(true);
    expect(showTagSearch(tags.slice(0, 1))).toBe(false);
    expect(showTagSearch([])).toBe(false);
  });
});
