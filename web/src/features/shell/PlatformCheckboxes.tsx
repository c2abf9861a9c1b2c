// Platform checkboxes of the header: the tracker's platforms enabled, the others disabled
// (trial-locked ones with a lock: its tooltip on hover or focus, and on click or Enter a small
// popover with the same text whose Contact us link takes the focus); the last checked platform
// stays checked.
import * as Popover from '@radix-ui/react-popover';
import { useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { PlatformCode, PlatformFlags } from '../../api/types';
import { IconLock } from '../../components/icons';
import { Tooltip } from '../../components/Tooltip';
import { PLATFORMS } from '../../lib/platforms';
import { availablePlatforms, pagePlatforms, togglePlatform, trialLockText, TRIAL_LOCKED } from '../../state/access';
import type { TrackerPage } from '../../state/query-state';

export function PlatformCheckboxes({
  page,
  flags,
  selected,
  trial,
  trialLocked = TRIAL_LOCKED,
  disabled,
  onChange,
}: {
  page: TrackerPage;
  flags: PlatformFlags;
  selected: PlatformCode[];
  trial: boolean;
  /** The platforms a trial cannot switch on (GET /me's trialLockedPlatforms). */
  trialLocked?: readonly PlatformCode[];
  disabled?: boolean;
  /** null: all available platforms (the default). */
  onChange: (selection: PlatformCode[] | null) => void;
}) {
  const supported = pagePlatforms(page);
  const available = availablePlatforms(page, flags);
  const shown = PLATFORMS.filter((p) => supported.includes(p.code));
  return (
    <fieldset className="flex flex-wrap items-center gap-x-3 gap-y-1" aria-label="Platforms">
      <legend className="sr-only">Platforms</legend>
      {shown.map((p) => {
        const has = flags[p.code] === 1;
        const locked = !has && trial && trialLocked.includes(p.code);
        const checked = has && selected.includes(p.code);
        const id = `platform-${p.code}`;
        return (
          <span key={p.code} className={`flex items-center gap-1.5 text-sm ${has ? 'text-slate-700' : 'text-slate-400'}`}>
            <input
              id={id}
              type="checkbox"
              className="h-4 w-4 rounded border-slate-300 accent-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed"
              checked={checked}
              disabled={!has || disabled}
              onChange={() => {
                const r = togglePlatform(selected, p.code, page, flags);
                if (r.reverted) return;
                const all = r.selection.length === available.length;
                onChange(all ? null : r.selection);
              }}
            />
            <label htmlFor={id} className={has && !disabled ? 'cursor-pointer select-none' : 'select-none'}>
              {p.label}
            </label>
            {locked ? <TrialLock label={p.label} /> : null}
          </span>
        );
      })}
    </fieldset>
  );
}

/**
 * The lock of a platform the trial does not include. Hovering or focusing it shows the reason in
 * a tooltip; a click or Enter opens the same text in a popover that takes the focus (its Contact
 * us link first), so the link is in reach of the keyboard. Escape closes the popover and gives the
 * focus back to the lock, without the tooltip coming back until the lock is left.
 */
function TrialLock({ label }: { label: string }) {
  const textId = useId();
  const [open, setOpen] = useState(false);
  const [tip, setTip] = useState(false);
  // Set when the popover closes: the focus coming back to the lock does not bring the tooltip.
  const quiet = useRef(false);
  const contact = useRef<HTMLAnchorElement>(null);
  const text = trialLockText(label);
  return (
    <Popover.Root
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (o) setTip(false);
        else quiet.current = true;
      }}
    >
      <Tooltip
        open={tip && !open}
        onOpenChange={(o) => setTip(o && !open && !quiet.current)}
        content={
          <span>
            {text}.{' '}
            <Link to="/contact-us" className="font-semibold text-sky-300 underline">
              Contact us
            </Link>
          </span>
        }
      >
        <Popover.Trigger asChild>
          <button
            type="button"
            className="rounded text-slate-400 hover:text-slate-600 focus-visible:outline-2 focus-visible:outline-brand-600"
            aria-label={`${label} is locked on trial`}
            onPointerMove={() => {
              quiet.current = false;
            }}
            onBlur={() => {
              quiet.current = false;
            }}
          >
            <IconLock size={14} />
          </button>
        </Popover.Trigger>
      </Tooltip>
      <Popover.Portal>
        <Popover.Content
          side="bottom"
          align="start"
          sideOffset={6}
          aria-labelledby={textId}
          onOpenAutoFocus={(e) => {
            e.preventDefault();
            contact.current?.focus();
          }}
          className="z-50 max-w-xs rounded-lg border border-slate-200 bg-white px-3 py-2 text-sm leading-snug text-slate-700 shadow-lg focus:outline-none"
          data-testid="trial-lock-popover"
        >
          <p>
            <span id={textId}>{text}</span>.{' '}
            <Link
              ref={contact}
              to="/contact-us"
              className="font-semibold text-brand-700 underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600"
            >
              Contact us
            </Link>
          </p>
          <Popover.Arrow className="fill-white" />
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
