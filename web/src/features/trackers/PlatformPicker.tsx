import * as Tooltip from '@radix-ui/react-tooltip';
import { Link } from 'react-router';
import type { PlatformCode, PlatformFlags } from '../../api/types';
import { IconLock } from '../../components/icons';
import { PLATFORMS } from '../../lib/platforms';
import { trialLockText } from '../../state/access';
import { platformLock, showExcludeRetweets, type TrialAccess } from './search-builder';

export interface PlatformPickerProps {
  platforms: PlatformFlags;
  onChange: (p: PlatformFlags) => void;
  access: TrialAccess;
  readOnly?: boolean;
  error?: string;
  excludeRetweets: boolean;
  onExcludeRetweets: (v: boolean) => void;
}

export function lockMessage(label: string, lock: 'trial' | 'not_allowed'): string {
  return lock === 'trial'
    ? trialLockText(label)
    : `${label} is not enabled for your account`;
}

/** Platform checkboxes; trial-locked ones explain why with a Contact us link. */
export function PlatformPicker({ platforms, onChange, access, readOnly = false, error, excludeRetweets, onExcludeRetweets }: PlatformPickerProps) {
  const toggle = (code: PlatformCode, on: boolean) => onChange({ ...platforms, [code]: on ? 1 : 0 });
  return (
    <Tooltip.Provider delayDuration={150}>
      <fieldset aria-describedby={error ? 'platforms-error' : undefined}>
        <legend className="text-sm font-semibold text-slate-900">Platforms</legend>
        <div className="mt-3 grid grid-cols-2 gap-2 sm:grid-cols-4">
          {PLATFORMS.map((p) => {
            const on = platforms[p.code] === 1;
            const lock = readOnly ? null : platformLock(p.code, on, access);
            const id = `platform-${p.code}`;
            return (
              <div
                key={p.code}
                className={`flex flex-wrap items-center gap-x-2 rounded-md border px-3 py-2 text-sm ${on ? 'border-brand-500 bg-brand-50' : 'border-slate-200 bg-white'} ${lock ? 'opacity-80' : ''}`}
              >
                <input
                  id={id}
                  type="checkbox"
                  checked={on}
                  disabled={readOnly || lock !== null}
                  onChange={(e) => toggle(p.code, e.target.checked)}
                  className="h-4 w-4 rounded border-slate-300 accent-brand-600 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
                />
                <label htmlFor={id} className={`flex flex-1 items-center gap-1.5 ${lock ? 'text-slate-400' : 'text-slate-800'}`}>
                  <span
                    aria-hidden="true"
                    className={`inline-flex h-5 min-w-5 items-center justify-center rounded px-1 text-[10px] font-bold leading-none ${p.badge}`}
                  >
                    {p.short}
                  </span>
                  {p.label}
                </label>
                {lock && (
                  <Tooltip.Root>
                    <Tooltip.Trigger asChild>
                      <button
                        type="button"
                        aria-label={lockMessage(p.label, lock)}
                        className="inline-flex h-6 w-6 items-center justify-center rounded text-slate-500 hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
                      >
                        <IconLock size={14} />
                      </button>
                    </Tooltip.Trigger>
                    <Tooltip.Portal>
                      <Tooltip.Content sideOffset={4} className="z-50 max-w-60 rounded bg-slate-900 px-2 py-1 text-xs text-white shadow">
                        {lockMessage(p.label, lock)}
                        <Tooltip.Arrow className="fill-slate-900" />
                      </Tooltip.Content>
                    </Tooltip.Portal>
                  </Tooltip.Root>
                )}
                {lock && (
                  <Link to="/contact-us" className="basis-full pl-6 text-xs font-medium text-brand-700 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500">
                    Contact us
                  </Link>
                )}
              </div>
            );
          })}
        </div>
        {showExcludeRetweets(platforms) && (
          <label className="mt-3 inline-flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              checked={excludeRetweets}
              disabled={readOnly}
              onChange={(e) => onExcludeRetweets(e.target.checked)}
              className="h-4 w-4 rounded border-slate-300 accent-brand-600"
            />
            Exclude Retweets
          </label>
        )}
        {error && (
          <p id="platforms-error" className="mt-2 text-sm text-red-600">
            {error}
          </p>
        )}
      </fieldset>
    </Tooltip.Provider>
  );
}
