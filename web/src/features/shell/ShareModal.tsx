// dashboardShare: the shared dashboard link with a copy button (active state for 2 s), its custom
// URL (saved 1 s after typing stops), sending the link by e-mail, what visitors of the link may
// do, the tracker's own share-exports and unlock-date switches, and revoking the link (a confirm
// step that Escape cancels, leaving the dialog open).
import { createContext, useContext, useEffect, useId, useRef, useState, type RefObject } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../api/client';
import { useEditShare, useRevokeShare, useShare, type LinkSharing, type ShareView } from '../../api/queries/share';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { CopyField } from '../../components/CopyField';
import { IconLock } from '../../components/icons';
import { LoadError } from '../../components/LoadError';
import { Modal } from '../../components/Modal';
import { LoadingState } from '../../components/Spinner';
import { Switch } from '../../components/Switch';
import { errorMessage } from '../../lib/errors';
import { ShareByEmail } from './ShareByEmail';
import { cleanCustomUrl, shareLinkUrl } from './share-link';

export { COPY_FEEDBACK_MS } from '../../components/CopyField';
export const CUSTOM_URL_DEBOUNCE_MS = 1000;
export const EXPORT_LOCK_TEXT = 'Upgrade to export reports';
export const LINK_SHARING_LOCK_TEXT = 'Upgrade your account to unlock';

export interface ShareModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  hash: string;
  /** The page's query string, kept in the link. */
  search: string;
  /** Shown in an empty custom URL field: the name the link uses without one. */
  friendly: string;
}

/** How Escape cancels the open confirm step (null: none is open). */
const ConfirmEscape = createContext<RefObject<(() => void) | null> | null>(null);

export function ShareModal({ open, onOpenChange, hash, search, friendly }: ShareModalProps) {
  const cancelStep = useRef<(() => void) | null>(null);
  // Escape goes to the revoke confirm step before the dialog: it cancels the step only.
  const onEscape = (e: KeyboardEvent) => {
    if (!cancelStep.current) return;
    e.preventDefault();
    cancelStep.current();
  };
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Share this dashboard"
      description="Anyone with this link can view the dashboard without signing in."
      name="dashboardShare"
      onEscapeKeyDown={onEscape}
    >
      <ConfirmEscape.Provider value={cancelStep}>
        <ShareBody hash={hash} search={search} friendly={friendly} />
      </ConfirmEscape.Provider>
    </Modal>
  );
}

function ShareBody({ hash, search, friendly }: Omit<ShareModalProps, 'open' | 'onOpenChange'>) {
  const share = useShare(hash);
  if (share.isPending) return <LoadingState label="Loading the share link…" />;
  if (share.isError) return <LoadError error={share.error} onRetry={() => share.refetch()} compact />;
  return <ShareSettings hash={hash} view={share.data} search={search} friendly={friendly} />;
}

function ShareSettings({ hash, view, search, friendly }: { hash: string; view: ShareView; search: string; friendly: string }) {
  const url = shareLinkUrl(window.location.origin, view.path, view.shareHash, search);
  const edit = useEditShare(hash);
  const [toggleError, setToggleError] = useState<string | null>(null);

  const change = (c: { linkSharing?: LinkSharing; shareExports?: boolean; unlockDate?: boolean }) => {
    setToggleError(null);
    edit.mutate(c, { onError: (e) => setToggleError(errorMessage(e)) });
  };
  const setLink = (k: keyof LinkSharing, on: boolean) => change({ linkSharing: { ...view.linkSharing, [k]: on } });
  // The caller's plan does not include the link-sharing options: the switches show them but cannot change them.
  const locked = view.linkSharingLocked;

  return (
    <div className="space-y-5">
      <LinkField url={url} />
      <CustomUrlField hash={hash} saved={view.customUrl ?? ''} friendly={friendly} />
      <ShareByEmail hash={hash} search={search} enabled={view.emailEnabled} />

      <fieldset className="border-t border-slate-100 pt-4">
        <legend className="float-left w-full text-sm font-semibold text-slate-900">Link sharing</legend>
        <p className="clear-left text-xs text-slate-500">What visitors of this link may do.</p>
        {locked ? (
          <p className="mt-2 flex items-center gap-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm" data-testid="link-sharing-lock">
            <IconLock size={16} className="shrink-0 text-amber-600" />
            <Link to="/pricing" className="font-medium text-amber-800 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600">
              {LINK_SHARING_LOCK_TEXT}
            </Link>
          </p>
        ) : null}
        <div className="divide-y divide-slate-100">
          <Switch
            label="Edit date range"
            description="Pick another date range on the shared pages."
            checked={view.linkSharing.editDateRange}
            disabled={locked}
            onChange={(on) => setLink('editDateRange', on)}
          />
          <Switch
            label="Export reports"
            description={
              view.exportsLocked && !view.linkSharing.exportReports ? (
                <span className="inline-flex items-center gap-1 font-medium text-amber-700" data-testid="export-lock">
                  <IconLock size={12} className="shrink-0 text-amber-600" />
                  <Link to="/pricing" className="underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600">
                    {EXPORT_LOCK_TEXT}
                  </Link>
                </span>
              ) : (
                'Download the posts and influencers as CSV.'
              )
            }
            checked={view.linkSharing.exportReports}
            disabled={locked || (view.exportsLocked && !view.linkSharing.exportReports)}
            onChange={(on) => setLink('exportReports', on)}
          />
          <Switch
            label="View predictions"
            description="Turn on the timeline's posts forecast."
            checked={view.linkSharing.viewPredictions}
            disabled={locked}
            onChange={(on) => setLink('viewPredictions', on)}
          />
        </div>
      </fieldset>

      <fieldset className="border-t border-slate-100 pt-4">
        <legend className="float-left w-full text-sm font-semibold text-slate-900">Tracker</legend>
        <p className="clear-left text-xs text-slate-500">For everyone who opens the tracker, signed in or not.</p>
        <div className="divide-y divide-slate-100">
          <Switch
            label="Share exports"
            description="Viewers may export and embed."
            checked={view.shareExports}
            onChange={(on) => change({ shareExports: on })}
          />
          <Switch
            label="Unlock date range"
            description="Anyone may change the date range."
            checked={view.unlockDate}
            onChange={(on) => change({ unlockDate: on })}
          />
        </div>
      </fieldset>
      {toggleError ? <Alert>{toggleError}</Alert> : null}

      <RevokeLink hash={hash} />
    </div>
  );
}

function LinkField({ url }: { url: string }) {
  return <CopyField id="dashboard-share-link" label="Dashboard link" value={url} />;
}

type SaveState = { kind: 'idle' } | { kind: 'waiting' } | { kind: 'saving' } | { kind: 'saved' } | { kind: 'error'; message: string };

/**
 * The custom URL: spaces removed as typed, saved 1 s after the last keystroke. A refused value
 * stays in the field with the server's message under it. Closing the dialog saves at once.
 */
function CustomUrlField({ hash, saved, friendly }: { hash: string; saved: string; friendly: string }) {
  const id = useId();
  const edit = useEditShare(hash);
  const [text, setText] = useState(saved);
  const [state, setState] = useState<SaveState>({ kind: 'idle' });
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // The text waiting for the debounce, and the latest text typed (answers to older saves are not shown).
  const pending = useRef<string | null>(null);
  const latest = useRef(saved);
  const mutate = edit.mutate;

  const save = (value: string) => {
    pending.current = null;
    setState({ kind: 'saving' });
    mutate(
      { customUrl: value },
      {
        onSuccess: () => {
          if (latest.current === value) setState({ kind: 'saved' });
        },
        onError: (e) => {
          if (latest.current === value) setState({ kind: 'error', message: e instanceof ApiError ? e.message : errorMessage(e) });
        },
      },
    );
  };

  useEffect(
    () => () => {
      clearTimeout(timer.current);
      if (pending.current !== null) mutate({ customUrl: pending.current });
    },
    [mutate],
  );

  const onChange = (raw: string) => {
    const value = cleanCustomUrl(raw);
    setText(value);
    latest.current = value;
    clearTimeout(timer.current);
    if (value === saved && state.kind !== 'error') {
      pending.current = null;
      setState({ kind: 'idle' });
      return;
    }
    pending.current = value;
    setState({ kind: 'waiting' });
    timer.current = setTimeout(() => save(value), CUSTOM_URL_DEBOUNCE_MS);
  };

  const error = state.kind === 'error' ? state.message : null;
  return (
    <div>
      <div className="mb-1 flex items-baseline justify-between gap-3">
        <label htmlFor={`${id}-input`} className="block text-sm font-medium text-slate-700">
          Custom URL
        </label>
        <span aria-live="polite" className="text-xs text-slate-500" data-testid="custom-url-status">
          {state.kind === 'saving' ? 'Saving…' : state.kind === 'saved' ? 'Saved' : ''}
        </span>
      </div>
      <input
        id={`${id}-input`}
        value={text}
        placeholder={friendly}
        maxLength={100}
        autoComplete="off"
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : `${id}-hint`}
        onChange={(e) => onChange(e.target.value)}
        className={`block h-9 w-full rounded-md border bg-white px-3 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:outline-none focus:ring-2 focus:ring-brand-500 ${error ? 'border-red-400' : 'border-slate-300'}`}
      />
      {error ? (
        <p id={`${id}-error`} role="alert" className="mt-1 text-sm text-red-600">
          {error}
        </p>
      ) : (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          The link's last part: letters, digits, - and _. Empty uses the tracker's name.
        </p>
      )}
    </div>
  );
}

function RevokeLink({ hash }: { hash: string }) {
  const revoke = useRevokeShare(hash);
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState(false);
  const revokeButton = useRef<HTMLButtonElement>(null);
  const wasConfirming = useRef(false);
  useEffect(() => {
    // Back from the confirm step: focus returns to the button that opened it.
    if (wasConfirming.current && !confirming) revokeButton.current?.focus();
    wasConfirming.current = confirming;
  }, [confirming]);
  // While the step is open, Escape cancels it, except while the revoke is on its way (the dialog
  // stays open then too).
  const escape = useContext(ConfirmEscape);
  const pending = useRef(revoke.isPending);
  pending.current = revoke.isPending;
  useEffect(() => {
    if (!escape || !confirming) return;
    const cancel = () => {
      if (!pending.current) setConfirming(false);
    };
    escape.current = cancel;
    return () => {
      if (escape.current === cancel) escape.current = null;
    };
  }, [escape, confirming]);

  return (
    <div className="border-t border-slate-100 pt-4">
      {confirming ? (
        <div role="group" aria-label="Revoke the link" className="flex flex-wrap items-center gap-3 rounded-md border border-red-200 bg-red-50 px-3 py-2">
          <p className="flex-1 text-sm text-red-800">Revoke? The current link stops working.</p>
          <Button
            variant="danger"
            size="sm"
            loading={revoke.isPending}
            onClick={() =>
              revoke.mutate(undefined, {
                onSuccess: () => {
                  setDone(true);
                  setConfirming(false);
                },
              })
            }
          >
            Confirm
          </Button>
          <Button variant="secondary" size="sm" autoFocus disabled={revoke.isPending} onClick={() => setConfirming(false)}>
            Cancel
          </Button>
        </div>
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          <Button
            ref={revokeButton}
            variant="secondary"
            size="sm"
            onClick={() => {
              revoke.reset();
              setDone(false);
              setConfirming(true);
            }}
          >
            Revoke link
          </Button>
          <span className="text-xs text-slate-500" aria-live="polite">
            {done ? 'Link revoked: the link above is the new one.' : 'Makes a new link; the current one stops working.'}
          </span>
        </div>
      )}
      {revoke.isError ? <Alert className="mt-3">{errorMessage(revoke.error)}</Alert> : null}
    </div>
  );
}

