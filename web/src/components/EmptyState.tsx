// Chart and page empty state: a graphic, a title and a body (dashboard-and-shell spec, section 2).
export const EMPTY_TITLE = "We couldn't find any posts.";
export const EMPTY_BODY = 'Add more search terms or expand the date range to see more.';
export const PREVIEW_TITLE = 'Collecting posts...';
export const PREVIEW_BODY = 'Wait for the magic to happen!';

export type EmptyGraphic =
  | 'Loading'
  | 'PlatformsWithLightningBolt'
  | 'BullhornHashtagSpeechBubble'
  | 'LaptopLoadingPlatforms'
  | 'BullhornEllipsesWithHashtags'
  | 'PlatformsWithArrowUp'
  | 'LightningBolt'
  | 'Default';

export function EmptyState({
  graphic = 'Default',
  title = EMPTY_TITLE,
  body = EMPTY_BODY,
  compact = false,
}: {
  graphic?: EmptyGraphic;
  title?: string;
  body?: string;
  compact?: boolean;
}) {
  return (
    <div className={`flex flex-col items-center justify-center text-center ${compact ? 'gap-2 py-6' : 'gap-3 py-12'}`} data-empty-state>
      <Graphic kind={graphic} size={compact ? 72 : 112} />
      <p className={`font-semibold text-slate-800 ${compact ? 'text-sm' : 'text-base'}`}>{title}</p>
      <p className={`max-w-sm text-slate-500 ${compact ? 'text-xs' : 'text-sm'}`}>{body}</p>
    </div>
  );
}

function Graphic({ kind, size }: { kind: EmptyGraphic; size: number }) {
  const common = { width: size, height: size * 0.75, viewBox: '0 0 160 120', 'aria-hidden': true, focusable: false } as const;
  const bg = <ellipse cx="80" cy="104" rx="58" ry="8" fill="#e2e8f0" />;
  switch (kind) {
    case 'Loading':
      return (
        <svg {...common} className="animate-pulse">
          {bg}
          <circle cx="80" cy="56" r="30" fill="none" stroke="#cbd5e1" strokeWidth="8" />
          <path d="M80 26a30 30 0 0 1 30 30" fill="none" stroke="#2563eb" strokeWidth="8" strokeLinecap="round" />
        </svg>
      );
    case 'BullhornHashtagSpeechBubble':
    case 'BullhornEllipsesWithHashtags':
      return (
        <svg {...common}>
          {bg}
          <path d="M34 62l46-22v52L34 74z" fill="#dbeafe" stroke="#2563eb" strokeWidth="3" strokeLinejoin="round" />
          <rect x="22" y="60" width="14" height="16" rx="3" fill="#2563eb" />
          <path d="M40 76l6 20h10l-4-16" fill="#bfdbfe" stroke="#2563eb" strokeWidth="3" strokeLinejoin="round" />
          <rect x="94" y="18" width="48" height="34" rx="8" fill="#fff" stroke="#94a3b8" strokeWidth="3" />
          <path d="M104 52l-4 10 12-10" fill="#fff" stroke="#94a3b8" strokeWidth="3" strokeLinejoin="round" />
          {kind === 'BullhornHashtagSpeechBubble' ? (
            <path d="M111 26l-3 18M123 26l-3 18M104 31h24M102 39h24" stroke="#2563eb" strokeWidth="3" strokeLinecap="round" />
          ) : (
            <g fill="#2563eb"><circle cx="106" cy="35" r="3" /><circle cx="118" cy="35" r="3" /><circle cx="130" cy="35" r="3" /></g>
          )}
        </svg>
      );
    case 'LightningBolt':
    case 'PlatformsWithLightningBolt':
      return (
        <svg {...common}>
          {bg}
          {kind === 'PlatformsWithLightningBolt' ? <Platforms /> : null}
          <path d="M86 14L58 64h20l-6 38 30-54H82z" fill="#fde68a" stroke="#f59e0b" strokeWidth="3" strokeLinejoin="round" />
        </svg>
      );
    case 'LaptopLoadingPlatforms':
      return (
        <svg {...common}>
          {bg}
          <rect x="38" y="30" width="84" height="56" rx="5" fill="#fff" stroke="#94a3b8" strokeWidth="3" />
          <path d="M28 92h104l-8 8H36z" fill="#cbd5e1" />
          <rect x="50" y="52" width="60" height="8" rx="4" fill="#e2e8f0" />
          <rect x="50" y="52" width="34" height="8" rx="4" fill="#2563eb" />
        </svg>
      );
    case 'PlatformsWithArrowUp':
      return (
        <svg {...common}>
          {bg}
          <Platforms />
          <path d="M80 96V30M62 48l18-18 18 18" fill="none" stroke="#2563eb" strokeWidth="6" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      );
    default:
      return (
        <svg {...common}>
          {bg}
          <rect x="34" y="22" width="92" height="70" rx="8" fill="#fff" stroke="#94a3b8" strokeWidth="3" />
          <path d="M46 76l18-20 14 12 18-24 18 32" fill="none" stroke="#93c5fd" strokeWidth="4" strokeLinecap="round" strokeLinejoin="round" />
          <circle cx="112" cy="36" r="14" fill="#eff6ff" stroke="#2563eb" strokeWidth="3" />
          <path d="M122 46l10 10" stroke="#2563eb" strokeWidth="4" strokeLinecap="round" />
        </svg>
      );
  }
}

function Platforms() {
  return (
    <g>
      <circle cx="30" cy="40" r="12" fill="#0f172a" />
      <circle cx="130" cy="40" r="12" fill="#db2777" />
      <circle cx="26" cy="80" r="11" fill="#dc2626" />
      <circle cx="134" cy="80" r="11" fill="#1d4ed8" />
    </g>
  );
}
