// Dashboard panels, the platforms each applies to, and the 12-column layout
// (dashboard-and-shell spec, section 2 "Dashboard charts").
import type { ChartConfig, PlatformCode } from '../../api/types';
import { DASHBOARD_GROUPS, type DashboardGroup } from '../../api/queries/dashboard';
import { isEmbedChart } from '../shell/embed';

export interface PanelDef {
  /** The saved chart name (custom-config order). */
  chart: string;
  title: string;
  /** The request group (loading key) that feeds the panel. */
  group: DashboardGroup;
  /** null: every platform. */
  platforms: PlatformCode[] | null;
  /** Width on the 12-column grid with two columns of charts. */
  span: 6 | 12;
  graphic: 'PlatformsWithLightningBolt' | 'BullhornHashtagSpeechBubble' | 'LaptopLoadingPlatforms' | 'BullhornEllipsesWithHashtags' | 'PlatformsWithArrowUp' | 'LightningBolt' | 'Default';
}

export const PINNED_PANELS = [
  { chart: 'topStats', title: 'Key Statistics' },
  { chart: 'timeline', title: 'Timeline' },
] as const;

export const PINNED_NOTE = 'Key Statistics and Timeline are pinned to the top and cannot be moved or hidden.';

export const PANELS: PanelDef[] = [
  { chart: 'posts', title: 'Top Posts', group: 'topPosts', platforms: null, span: 6, graphic: 'BullhornHashtagSpeechBubble' },
  { chart: 'influencers', title: 'Influential Users', group: 'influencers', platforms: null, span: 6, graphic: 'PlatformsWithArrowUp' },
  { chart: 'topics', title: 'Related Topics', group: 'topics', platforms: null, span: 12, graphic: 'BullhornEllipsesWithHashtags' },
  { chart: 'topPages', title: 'Top Websites That Mention This Term', group: 'topPages', platforms: ['news', 'blogs', 'forums'], span: 6, graphic: 'LaptopLoadingPlatforms' },
  { chart: 'sentiment', title: 'Sentiment', group: 'sentiments', platforms: null, span: 6, graphic: 'Default' },
  { chart: 'shareOfVoice', title: 'Share Of Voice', group: 'sentiments', platforms: null, span: 6, graphic: 'PlatformsWithLightningBolt' },
  { chart: 'viewer_sentiment', title: 'Video Like/Dislike Ratio', group: 'viewerSentiments', platforms: ['yt'], span: 6, graphic: 'LightningBolt' },
  { chart: 'geography', title: 'Location', group: 'locations', platforms: null, span: 6, graphic: 'Default' },
  { chart: 'demographics', title: 'Gender', group: 'genders', platforms: null, span: 6, graphic: 'Default' },
  { chart: 'sources', title: 'Top Devices and Apps', group: 'devices', platforms: ['twt'], span: 6, graphic: 'LaptopLoadingPlatforms' },
  { chart: 'links', title: 'Most Linked Websites', group: 'topPages', platforms: ['twt', 'yt', 'fb', 'bsky', 'mastodon'], span: 6, graphic: 'LaptopLoadingPlatforms' },
  { chart: 'post_type', title: 'Social Media Post Types', group: 'postTypes', platforms: ['twt'], span: 6, graphic: 'PlatformsWithLightningBolt' },
];

/** Platforms that can carry a location: geography is requested only with one of them on. */
export const LOCATION_PLATFORMS: PlatformCode[] = ['twt', 'ig', 'fb', 'news', 'blogs', 'forums'];

/**
 * The request groups to fetch for the selected platforms (data-dependent request rules):
 * geography only with a location-bearing platform, sources and post types only with twitter,
 * viewer sentiment only with youtube.
 */
export function groupsFor(platforms: PlatformCode[]): DashboardGroup[] {
  const on = (c: PlatformCode) => platforms.includes(c);
  return DASHBOARD_GROUPS.filter((g) => {
    if (g === 'locations') return LOCATION_PLATFORMS.some(on);
    if (g === 'devices' || g === 'postTypes') return on('twt');
    if (g === 'viewerSentiments') return on('yt');
    return true;
  });
}

/** The saved order after moving `chart` to the place of `over` (pinned panels never move). */
export function moveChart(order: ChartConfig[], chart: string, over: string): ChartConfig[] {
  const from = order.findIndex((o) => o.chart === chart);
  const to = order.findIndex((o) => o.chart === over);
  if (from < 0 || to < 0 || from === to) return order;
  const next = [...order];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}

/** The full saved order (every panel, in display order) from a possibly partial saved config. */
export function fullOrder(config: { order: ChartConfig[] } | null | undefined): ChartConfig[] {
  const saved = config?.order ?? [];
  const known = saved.filter((o) => PANELS.some((p) => p.chart === o.chart));
  const missing = PANELS.filter((p) => !known.some((o) => o.chart === p.chart)).map((p) => ({ chart: p.chart, hide: false }));
  return [...known, ...missing];
}

export interface PlacedPanel extends PanelDef {
  hidden: boolean;
  /** Final width: 4, 6 or 12. */
  width: 4 | 6 | 12;
}

/**
 * The panels for the selected platforms, in the saved order (unknown saved charts ignored, new
 * panels appended), with their widths: a single-platform selection uses 12 columns for every
 * panel; three chart columns make regular panels 4 wide.
 */
export function layoutPanels(
  platforms: PlatformCode[],
  config: { order: ChartConfig[]; columns: 2 | 3 } | null | undefined,
): PlacedPanel[] {
  const applicable = PANELS.filter((p) => !p.platforms || p.platforms.some((c) => platforms.includes(c)));
  const order = config?.order ?? [];
  const rank = new Map(order.map((o, i) => [o.chart, i]));
  const hidden = new Map(order.map((o) => [o.chart, o.hide]));
  const sorted = [...applicable].sort((a, b) => {
    const ra = rank.get(a.chart) ?? Number.MAX_SAFE_INTEGER;
    const rb = rank.get(b.chart) ?? Number.MAX_SAFE_INTEGER;
    return ra === rb ? PANELS.indexOf(a) - PANELS.indexOf(b) : ra - rb;
  });
  const single = platforms.length === 1;
  const three = config?.columns === 3;
  return sorted.map((p) => ({
    ...p,
    hidden: !!hidden.get(p.chart),
    width: single || p.span === 12 ? 12 : three ? 4 : 6,
  }));
}

/**
 * The embed name of a panel (`chart=` of its embed): Key Statistics embeds as totalPosts; panels
 * without an embed (Share Of Voice, Top Websites) give null.
 */
export function embedChartOf(chart: string): string | null {
  const name = chart === 'topStats' ? 'totalPosts' : chart;
  return isEmbedChart(name) ? name : null;
}

/** The request groups an embedded chart reads (the only ones its embed key opens). */
export function chartGroups(name: string): DashboardGroup[] {
  if (name === 'totalPosts') return ['topStats'];
  if (name === 'timeline') return ['timeline'];
  const panel = PANELS.find((p) => p.chart === name);
  return panel && isEmbedChart(name) ? [panel.group] : [];
}

/** The panel of an embedded chart, full width (none for the pinned Key Statistics and Timeline). */
export function embedPanels(name: string): PlacedPanel[] {
  return PANELS.filter((p) => p.chart === name && isEmbedChart(name)).map((p) => ({ ...p, hidden: false, width: 12 }));
}
