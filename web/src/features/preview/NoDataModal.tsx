// No-data-found modal (tracker-lifecycle.md sections 4 and 8): shown when a new tracker's preview
// found nothing. Searching again deletes this tracker and starts a preview of the new term.
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import type { PlatformCode, PlatformFlags } from '../../api/types';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { IconLock } from '../../components/icons';
import { Modal } from '../../components/Modal';
import { PLATFORMS } from '../../lib/platforms';
import { trialLockText } from '../../state/access';
import { platformLock, type PlatformLock, type TrialAccess } from '../trackers/search-builder';
import { PREVIEW_FAILED } from './preview-flow';

export const NO_DATA_TITLE = 'Ruh roh, no data found. Try again?';
export const NO_DATA_TRIAL = "We didn't find any posts mentioning this search term within the last 24 hours...";
export const NO_DATA_PAID = 'New trackers contain a sample of post from the last 2 weeks, but this search term returned no results.';

/** "YouTube", "YouTube and TikTok", "YouTube, Facebook and TikTok". */
function listOf(names: string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** Why the locked platforms cannot be chosen, as the header and the tracker form say it. */
export function lockNote(locks: { label: string; lock: PlatformLock }[]): string {
  const trial = locks.filter((l) => l.lock === 'trial').map((l) => l.label);
  const other = locks.filter((l) => l.lock === 'not_allowed').map((l) => l.label);
  const parts: string[] = [];
  if (trial.length) parts.push(`${trialLockText(listOf(trial))}.`);
  if (other.length) parts.push(`${listOf(other)} ${other.length > 1 ? 'are' : 'is'} not enabled for your account.`);
  return parts.join(' ');
}

export interface NoDataModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  access: TrialAccess;
  /** The tracker's platforms: the new search starts with them. */
  platforms: PlatformFlags;
  /** Deletes this tracker and starts a preview of `term`; rejects when that failed. */
  onSearch: (term: string, platforms: PlatformFlags) => Promise<void>;
  /** Opens the historical-data modal (trial users' option). */
  onHistorical: () => void;
}

export function NoDataModal({ open, onOpenChange, access, platforms, onSearch, onHistorical }: NoDataModalProps) {
  const ids = { term: useId(), msg: useId(), locks: useId() };
  const [term, setTerm] = useState('');
  const [chosen, setChosen] = useState<PlatformFlags>(() => ({ ...platforms }));
  const [searching, setSearching] = useState(false);
  const [failed, setFailed] = useState(false);
  const anyPlatform = PLATFORMS.some((p) => chosen[p.code] === 1);
  const canSubmit = term.trim().length > 0 && anyPlatform && !searching;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!canSubmit) return;
    setSearching(true);
    setFailed(false);
    try {
      await onSearch(term.trim(), chosen);
    } catch {
      setFailed(true);
    } finally {
      setSearching(false);
    }
  };
  const toggle = (code: PlatformCode, on: boolean) => setChosen((c) => ({ ...c, [code]: on ? 1 : 0 }));
  const locks = PLATFORMS.map((p) => ({ label: p.label, code: p.code, lock: platformLock(p.code, chosen[p.code] === 1, access) })).filter((l) => l.lock !== null);
  const note = lockNote(locks);

  return (
    <Modal open={open} onOpenChange={(o) => !searching && onOpenChange(o)} name="noDataFound" title={NO_DATA_TITLE}>
      <div className="space-y-4 text-sm text-slate-600">
        <p>{access.trial ? NO_DATA_TRIAL : NO_DATA_PAID}</p>
        {access.trial ? (
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" size="sm" onClick={onHistorical} disabled={searching}>
              Get historical data
            </Button>
            <Button variant="ghost" size="sm" onClick={() => onOpenChange(false)} disabled={searching}>
              Keep collecting
            </Button>
          </div>
        ) : null}
        <form onSubmit={submit} noValidate aria-label="Search again" className="space-y-3 rounded-lg border border-slate-200 bg-slate-50 p-4">
          <div>
            <label htmlFor={ids.term} className="block font-medium text-slate-800">
              Search term
            </label>
            <input
              id={ids.term}
              type="text"
              value={term}
              disabled={searching}
              placeholder="A hashtag or keyword"
              onChange={(e) => setTerm(e.target.value)}
              aria-describedby={failed ? ids.msg : undefined}
              className="mt-1 block h-9 w-full rounded-md border border-slate-300 bg-white px-3 text-slate-900 shadow-sm focus:outline-none focus:ring-2 focus:ring-brand-500 disabled:bg-slate-100"
            />
          </div>
          <fieldset disabled={searching}>
            <legend className="font-medium text-slate-800">Platforms</legend>
            <div className="mt-2 grid grid-cols-2 gap-x-3 gap-y-1 sm:grid-cols-4">
              {PLATFORMS.map((p) => {
                const on = chosen[p.code] === 1;
                const locked = locks.some((l) => l.code === p.code);
                return (
                  <label key={p.code} className={`flex items-center gap-2 ${locked ? 'text-slate-400' : 'text-slate-700'}`}>
                    <input
                      type="checkbox"
                      className="h-4 w-4 accent-brand-600"
                      checked={on}
                      disabled={locked}
                      aria-describedby={locked ? ids.locks : undefined}
                      onChange={(e) => toggle(p.code, e.target.checked)}
                    />
                    {p.label}
                    {locked ? <IconLock size={12} className="shrink-0 text-slate-400" /> : null}
                  </label>
                );
              })}
            </div>
            {note ? (
              <p className="mt-2 flex items-start gap-1.5 text-xs text-slate-500" data-testid="platform-lock-note">
                <IconLock size={12} className="mt-0.5 shrink-0 text-slate-400" />
                <span>
                  <span id={ids.locks}>{note}</span>{' '}
                  <Link to="/contact-us" className="font-medium text-brand-700 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500">
                    Contact us
                  </Link>
                </span>
              </p>
            ) : null}
          </fieldset>
          {failed ? (
            <Alert className="mt-2">
              <span id={ids.msg}>{PREVIEW_FAILED}</span>
            </Alert>
          ) : null}
          <div className="flex justify-end gap-2">
            {!access.trial ? (
              <Button variant="ghost" onClick={() => onOpenChange(false)} disabled={searching}>
                Keep collecting
              </Button>
            ) : null}
            <Button type="submit" disabled={!canSubmit}>
              {searching ? 'Searching...' : 'Search'}
            </Button>
          </div>
        </form>
      </div>
    </Modal>
  );
}
