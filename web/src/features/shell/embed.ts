// Embeds (dashboard-and-shell spec, sections 2 and 4): the charts and pages that embed, the card
// of a chart embed, and the full tracker address a page embed's header opens.
import type { PlatformCode } from '../../api/types';
import { PLATFORMS, type PlatformInfo } from '../../lib/platforms';
import type { TrackerPage } from '../../state/query-state';

/** The dashboard charts that embed one by one (the names of `chart=`). */
export const EMBED_CHARTS = [
  'geography',
  'sources',
  'demographics',
  'influencers',
  'posts',
  'post_type',
  'sentiment',
  'totalPosts',
  'links',
  'viewer_sentiment',
  'topics',
  'timeline',
] as const;
export type EmbedChart = (typeof EMBED_CHARTS)[number];

export function isEmbedChart(name: string | null | undefined): name is EmbedChart {
  return !!name && (EMBED_CHARTS as readonly string[]).includes(name);
}

/** The page of `page=` that embeds a tracker page, or null for a page that does not embed. */
export function embedPageOf(page: TrackerPage): string | null {
  switch (page) {
    case 'dashboard':
    case 'realtime':
      return 'dashboard';
    case 'notifications':
      return null;
    default:
      return page;
  }
}

/** Charts whose embed shows a card's label (`card=platform;value`); the others ignore it. */
export const CARD_CHARTS: ReadonlySet<EmbedChart> = new Set<EmbedChart>(['totalPosts', 'timeline']);

/** The server's platform names beside the codes (a card may use either). */
const PLATFORM_NAMES: Record<string, PlatformCode> = {
  twitter: 'twt',
  instagram: 'ig',
  youtube: 'yt',
  facebook: 'fb',
  tiktok: 'tt',
  bluesky: 'bsky',
};

export interface EmbedCard {
  platform: PlatformInfo;
  value: string;
}

/** `platform;value` (platform by code or name, a value of 1 to 200 characters), or null. */
export function parseCard(card: string | null | undefined): EmbedCard | null {
  if (!card) return null;
  const at = card.indexOf(';');
  if (at <= 0) return null;
  const name = card.slice(0, at).trim().toLowerCase();
  const value = card.slice(at + 1).trim();
  if (!value || [...value].length > 200) return null;
  const code = PLATFORM_NAMES[name] ?? name;
  const platform = PLATFORMS.find((p) => p.code === code);
  return platform ? { platform, value } : null;
}

/** Parameters that make an address an embed; the full tracker is the same address without them. */
const EMBED_PARAMS = ['embed', 'embedKey', 'chart', 'card'];

/** The full tracker page an embed stands for: the same path and filters, no embed parameters. */
export function fullTrackerHref(origin: string, pathname: string, search: string): string {
  const p = new URLSearchParams(search);
  for (const k of EMBED_PARAMS) p.delete(k);
  const q = p.toString();
  return `${origin}${pathname}${q ? `?${q}` : ''}`;
}

/** How the Embed dialog names a page: "Embed this dashboard", "Embed the posts page". */
export function embedPageLabel(page: string): string {
  switch (page) {
    case 'dashboard':
      return 'this dashboard';
    case 'media-wall':
      return 'the media wall';
    case 'trending-topics':
      return 'the trending topics page';
    default:
      return `the ${page} page`;
  }
}
