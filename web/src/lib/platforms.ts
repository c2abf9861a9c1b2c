// Platform codes of the API with their display names and badge colours.
import type { PlatformCode, PlatformFlags } from '../api/types';

export interface PlatformInfo {
  code: PlatformCode;
  label: string;
  short: string;
  /** Tailwind classes for the small badge. */
  badge: string;
}

export const PLATFORMS: PlatformInfo[] = [
  { code: 'twt', label: 'Twitter', short: 'X', badge: 'bg-slate-900 text-white' },
  { code: 'ig', label: 'Instagram', short: 'IG', badge: 'bg-pink-600 text-white' },
  { code: 'yt', label: 'YouTube', short: 'YT', badge: 'bg-red-600 text-white' },
  { code: 'fb', label: 'Facebook', short: 'FB', badge: 'bg-blue-700 text-white' },
  { code: 'tt', label: 'TikTok', short: 'TT', badge: 'bg-teal-600 text-white' },
  { code: 'news', label: 'News', short: 'N', badge: 'bg-amber-600 text-white' },
  { code: 'blogs', label: 'Blogs', short: 'B', badge: 'bg-orange-500 text-white' },
  { code: 'forums', label: 'Forums', short: 'F', badge: 'bg-violet-600 text-white' },
  { code: 'bsky', label: 'Bluesky', short: 'BS', badge: 'bg-sky-500 text-white' },
  { code: 'mastodon', label: 'Mastodon', short: 'M', badge: 'bg-indigo-600 text-white' },
];

export function platformInfo(code: PlatformCode): PlatformInfo {
  return PLATFORMS.find((p) => p.code === code)!;
}

export function enabledPlatforms(flags: PlatformFlags | undefined | null): PlatformInfo[] {
  if (!flags) return [];
  return PLATFORMS.filter((p) => flags[p.code] === 1);
}
