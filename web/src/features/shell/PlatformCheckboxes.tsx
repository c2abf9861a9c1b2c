// Platform checkboxes of the header: the tracker's platforms enabled, the others disabled
// (trial-locked ones with a lock and tooltip); the last checked platform stays checked.
import { Link } from 'react-router';
import type { PlatformCode, PlatformFlags } from '../../api/types';
import { IconLock } from '../../components/icons';
import { Tooltip } from '../../components/Tooltip';
import { PLATFORMS } from '../../lib/platforms';
import { availablePlatforms, pagePlatforms, togglePlatform, TRIAL_LOCKED } from '../../state/access';
import type { TrackerPage } from '../../state/query-state';

export const TRIAL_LOCK_TEXT = 'listening for specified ... accounts is not available on trial';

export function PlatformCheckboxes({
  page,
  flags,
  selected,
  trial,
  disabled,
  onChange,
}: {
  page: TrackerPage;
  flags: PlatformFlags;
  selected: PlatformCode[];
  trial: boolean;
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
        const locked = !has && trial && TRIAL_LOCKED.includes(p.code);
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
            {locked ? (
              <Tooltip
                content={
                  <span>
                    {TRIAL_LOCK_TEXT}.{' '}
                    <Link to="/contact-us" className="font-semibold text-sky-300 underline">
                      Contact us
                    </Link>
                  </span>
                }
              >
                <button type="button" className="rounded text-slate-400 hover:text-slate-600 focus-visible:outline-2 focus-visible:outline-brand-600" aria-label={`${p.label} is locked on trial`}>
                  <IconLock size={14} />
                </button>
              </Tooltip>
            ) : null}
          </span>
        );
      })}
    </fieldset>
  );
}
