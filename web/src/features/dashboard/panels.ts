// Dashboard panels, the platforms each applies to, and the 12-column layout
// (dashboard-and-shell spec, section 2 "Dashboard charts").
import type { ChartConfig, PlatformCode } from '../../api/types';

export interface PanelDef {
  chart: string;
  title: string;
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
  { chart: 'topPosts', title: 'Top Posts', platforms: null, span: 6, graphic: 'BullhornHashtagSpeechBubble' },
  { chart: 'influencers', title: 'Influential Users', platforms: null, span: 6, graphic: 'PlatformsWithArrowUp' },
  { chart: 'topics', title: 'Related Topics', platforms: null, span: 12, graphic: 'BullhornEllipsesWithHashtags' },
  { chart: 'topPages', title: 'Top Websites That Mention This Term', platforms: ['news', 'blogs', 'forums'], span: 6, graphic: 'LaptopLoadingPlatforms' },
  { chart: 'sentiments', title: 'Sentiment', platforms: null, span: 6, graphic: 'Default' },
  { chart: 'shareOfVoice', title: 'Share Of Voice', platforms: null, span: 6, graphic: 'PlatformsWithLightningBolt' },
  { chart: 'viewerSentiments', title: 'Video Like/Dislike Ratio', platforms: ['yt'], span: 6, graphic: 'LightningBolt' },
  { chart: 'locations', title: 'Location', platforms: null, span: 6, graphic: 'Default' },
  { chart: 'genders', title: 'Gender', platforms: null, span: 6, graphic: 'Default' },
  { chart: 'devices', title: 'Top Devices and Apps', platforms: ['twt'], span: 6, graphic: 'LaptopLoadingPlatforms' },
  { chart: 'links', title: 'Most Linked Websites', platforms: ['twt', 'yt', 'fb'], span: 6, graphic: 'LaptopLoadingPlatforms' },
  { chart: 'postTypes', title: 'Social Media Post Types', platforms: ['twt'], span: 6, graphic: 'PlatformsWithLightningBolt' },
];

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
