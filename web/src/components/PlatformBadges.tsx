import type { PlatformFlags } from '../api/types';
import { enabledPlatforms } from '../lib/platforms';

/** Small coloured badges for the platforms a tracker follows. */
export function PlatformBadges({ platforms }: { platforms: PlatformFlags }) {
  const list = enabledPlatforms(platforms);
  return (
    <ul className="flex flex-wrap items-center gap-1" aria-label="Platforms">
      {list.map((p) => (
        <li key={p.code}>
          <span
            title={p.label}
            className={`inline-flex h-5 min-w-5 items-center justify-center rounded px-1 text-[10px] font-bold leading-none ${p.badge}`}
          >
            <span aria-hidden="true">{p.short}</span>
            <span className="sr-only">{p.label}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}
