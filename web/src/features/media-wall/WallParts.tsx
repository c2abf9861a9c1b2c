// Pieces of the media wall page around the wall itself: the moderation switch of the toolbar,
// the line over the wall, and its loading, empty, locked and failed states.
import { useId } from 'react';
import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { IconExternal, IconLock } from '../../components/icons';
import { LoadError } from '../../components/LoadError';
import type { WallVisibility } from '../../state/query-state';
import { EMBED_UNAVAILABLE } from '../shell/EmbedFrame';
import { MODERATION_LINK_INVALID } from './wall-data';
import { IconShrink } from './wall-icons';
import { UpgradeText, UPGRADE_TITLE, UPGRADE_VISITOR_TITLE } from './WallModals';

/** 'Media Wall Moderation': an inline switch for the toolbar. */
export function ModerationSwitch({ checked, busy, disabled, onChange }: { checked: boolean; busy: boolean; disabled: boolean; onChange: (on: boolean) => void }) {
  const id = useId();
  return (
    <div className="inline-flex items-center gap-2 text-sm text-slate-700">
      <button
        type="button"
        role="switch"
        aria-labelledby={id}
        aria-checked={checked}
        aria-busy={busy || undefined}
        disabled={disabled || busy}
        onClick={() => onChange(!checked)}
        className={`relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-60 ${
          checked ? 'bg-brand-600' : 'bg-slate-300'
        }`}
      >
        <span aria-hidden="true" className={`inline-block h-5 w-5 rounded-full bg-white shadow transition-transform ${checked ? 'translate-x-5' : 'translate-x-0.5'}`} />
      </button>
      {/* The text flips the switch too, as a label would. */}
      <span id={id} className={disabled || busy ? '' : 'cursor-pointer'} onClick={() => !disabled && !busy && onChange(!checked)}>
        Media Wall Moderation
      </span>
    </div>
  );
}

/** The line over the wall: its title (full screen and embeds), how many posts, that it is live. */
export function WallBar({
  title,
  fullHref,
  count,
  dark,
  paceS,
  fullscreen,
  onExit,
}: {
  title: string | null;
  /** In an embed the title opens the full tracker page in a new tab, as other page embeds do. */
  fullHref: string | null;
  count: number;
  dark: boolean;
  paceS: number | null;
  fullscreen: boolean;
  onExit: () => void;
}) {
  const muted = dark ? 'text-slate-400' : 'text-slate-500';
  return (
    <div className="mb-4 flex flex-wrap items-center gap-x-4 gap-y-2">
      {title && fullHref ? (
        <h1 className="min-w-0 truncate text-lg font-semibold" title={title}>
          <a
            href={fullHref}
            target="_blank"
            rel="noopener"
            className="inline-flex max-w-full items-center gap-2 rounded hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500"
          >
            <span className="truncate">{title}</span>
            <IconExternal size={14} className={`shrink-0 ${muted}`} />
            <span className="sr-only">(opens in a new tab)</span>
          </a>
        </h1>
      ) : title ? (
        <h2 className={`min-w-0 truncate font-semibold ${fullscreen ? 'text-2xl' : 'text-lg'}`}>{title}</h2>
      ) : null}
      <p className={`flex items-center gap-2 text-xs ${muted}`} data-testid="wall-status">
        <span className="relative inline-flex h-2 w-2" aria-hidden="true">
          <span className="absolute inline-flex h-full w-full animate-ping rounded-full bg-emerald-400 opacity-60" />
          <span className="relative inline-flex h-2 w-2 rounded-full bg-emerald-500" />
        </span>
        <span>
          Live · {count} post{count === 1 ? '' : 's'}
          {paceS ? <span className="sr-only">, checking for new posts every {paceS} seconds</span> : null}
        </span>
      </p>
      {fullscreen ? (
        <button
          type="button"
          onClick={onExit}
          className={`ml-auto inline-flex h-9 items-center gap-2 rounded-md px-3 text-sm font-medium focus-visible:outline-2 focus-visible:outline-brand-500 ${
            dark ? 'bg-white/10 text-white hover:bg-white/20' : 'border border-slate-300 bg-white text-slate-700 hover:bg-slate-50'
          }`}
        >
          <IconShrink size={14} />
          Exit Full Screen
        </button>
      ) : null}
    </div>
  );
}

export function WallLoading({ dark }: { dark: boolean }) {
  return (
    <div aria-busy="true" role="status" aria-label="Loading the media wall">
      <div className="grid grid-cols-[repeat(auto-fill,minmax(min(100%,240px),1fr))] gap-4">
        {Array.from({ length: 8 }, (_, i) => (
          <div key={i} className={`aspect-[4/5] animate-pulse rounded-xl ${dark ? 'bg-slate-800' : 'bg-slate-200'}`} />
        ))}
      </div>
    </div>
  );
}

export function WallEmpty({ dark, search, visibility }: { dark: boolean; search: string; visibility: WallVisibility }) {
  const [title, body] = search
    ? [`No posts match “${search}”.`, 'Try other words, or clear the search to see the whole wall.']
    : visibility === 0
      ? ['No hidden posts.', 'Posts you hide from the wall are listed here, ready to show again.']
      : ['No posts with media yet.', 'Photos and videos this tracker collects appear here as they arrive.'];
  return (
    <div className={dark ? '[&_p]:text-slate-400 [&_p:first-of-type]:text-white' : ''} data-testid="wall-empty">
      <EmptyState graphic="PlatformsWithLightningBolt" title={title} body={body} />
    </div>
  );
}

export function LockedWall({ signedIn, embed, onUpgrade }: { signedIn: boolean; embed: boolean; onUpgrade: () => void }) {
  return (
    <div className="flex flex-col items-center justify-center gap-3 py-16 text-center" data-testid="wall-locked">
      <span className="inline-flex h-14 w-14 items-center justify-center rounded-full bg-amber-100 text-amber-700">
        <IconLock size={26} />
        <span className="sr-only">Locked</span>
      </span>
      <p className="text-base font-semibold">{signedIn ? UPGRADE_TITLE : UPGRADE_VISITOR_TITLE}</p>
      <div className="max-w-md [&_p]:text-slate-400">
        <UpgradeText signedIn={signedIn} />
      </div>
      {!embed ? (
        <Button className="mt-2" onClick={onUpgrade}>
          {signedIn ? 'See how to upgrade' : 'Learn more'}
        </Button>
      ) : null}
    </div>
  );
}

export function WallError({ error, embed, keyed, refused, onRetry }: { error: unknown; embed: boolean; keyed: boolean; refused: boolean; onRetry: () => void }) {
  if (embed && refused) {
    return (
      <p role="alert" className="py-16 text-center text-sm text-slate-400">
        {EMBED_UNAVAILABLE}
      </p>
    );
  }
  if (keyed && refused) {
    return (
      <div role="alert" className="py-16 text-center">
        <p className="text-base font-semibold">{MODERATION_LINK_INVALID}</p>
        <p className="mt-2 text-sm text-slate-400">It may have been reset. Ask the owner of this tracker for the new link.</p>
      </div>
    );
  }
  return (
    <div className="rounded-lg bg-white">
      <LoadError error={error} onRetry={onRetry} />
    </div>
  );
}
