// Pure rules of the tag filter dropdown (dashboard-and-shell spec, sections 4 and 5).
import type { Tag } from '../../api/types';
import type { TagFilters } from '../../state/query-state';

function sameSet(a: number[], b: number[]): boolean {
  if (a.length !== b.length) return false;
  const s = new Set(a);
  return b.every((x) => s.has(x));
}

/**
 * Apply is enabled when the selection or the mode differs from the applied filters; with
 * nothing applied, when at least one tag is selected.
 */
export function canApplyTags(applied: TagFilters, draft: TagFilters): boolean {
  const nothingApplied = applied.postTags.length === 0 && applied.influencerTags.length === 0;
  if (nothingApplied) return draft.postTags.length + draft.influencerTags.length > 0;
  return (
    !sameSet(applied.postTags, draft.postTags) ||
    !sameSet(applied.influencerTags, draft.influencerTags) ||
    applied.postTagFilterMode !== draft.postTagFilterMode ||
    applied.influencerTagFilterMode !== draft.influencerTagFilterMode
  );
}

/** Sorted alphabetically; filtered by a case-insensitive substring (empty query: all). */
export function visibleTags(tags: Tag[], query: string): Tag[] {
  const q = query.trim().toLowerCase();
  return [...tags]
    .filter((t) => !q || t.name.toLowerCase().includes(q))
    .sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }));
}

/** The search box appears only when more than one tag exists. */
export function showTagSearch(tags: Tag[]): boolean {
  return tags.length > 1;
}

export const TAG_MODE_LABELS = { any: 'Select posts containing ANY of', all: 'Select posts containing ALL of' } as const;

/** The empty influencer tag list's hint (influencer tags are made on the account watchlist). */
export const NO_INFLUENCER_TAGS = 'Go to Account Watchlist to create your first tag';

/** The `action` URL parameter that opens the influencers page's Manage tags (the account watchlist). */
export const MANAGE_INFLUENCER_TAGS_ACTION = 'influencer-tags';
