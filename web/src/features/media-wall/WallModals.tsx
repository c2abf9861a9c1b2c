// The media wall's modals: share moderation (the moderation link, its copy button and its reset),
// bulk delete, and the upgrade notice of a plan without the media wall.
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useModerationLink, useRotateModerationLink } from '../../api/queries/media-wall';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { CopyField } from '../../components/CopyField';
import { IconLock } from '../../components/icons';
import { LoadError } from '../../components/LoadError';
import { Modal } from '../../components/Modal';
import { LoadingState } from '../../components/Spinner';
import { errorMessage } from '../../lib/errors';
import { LINK_SHARING_LOCK_TEXT as UPGRADE_TEXT } from '../shell/ShareModal';
import { SHARE_WARNING, SHARE_WARNING_DETAIL } from './wall-data';

export const RESET_CONFIRM = 'Reset the link? The current link stops working at once.';

export function ShareModerationDialog({ open, onOpenChange, hash }: { open: boolean; onOpenChange: (open: boolean) => void; hash: string }) {
  const [confirming, setConfirming] = useState(false);
  useEffect(() => {
    if (!open) setConfirming(false);
  }, [open]);
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Share Moderation"
      description="Send this link to the people who approve and hide posts on this media wall."
      name="shareModeration"
      // Escape goes to the reset step first: it cancels the step, the dialog stays.
      onEscapeKeyDown={(e) => {
        if (confirming) {
          e.preventDefault();
          setConfirming(false);
        }
      }}
    >
      {open ? <ShareModerationBody hash={hash} confirming={confirming} setConfirming={setConfirming} /> : null}
    </Modal>
  );
}

function ShareModerationBody({ hash, confirming, setConfirming }: { hash: string; confirming: boolean; setConfirming: (on: boolean) => void }) {
  const link = useModerationLink(hash, true);
  const rotate = useRotateModerationLink(hash);
  const [rotated, setRotated] = useState(false);
  const resetButton = useRef<HTMLButtonElement>(null);
  const wasConfirming = useRef(false);
  useEffect(() => {
    // Back from the confirm step: the focus returns to the button that opened it.
    if (wasConfirming.current && !confirming) resetButton.current?.focus();
    wasConfirming.current = confirming;
  }, [confirming]);

  if (link.isPending) return <LoadingState label="Loading the moderation link…" />;
  if (link.isError) return <LoadError error={link.error} onRetry={() => link.refetch()} compact />;
  return (
    <div className="space-y-4">
      <CopyField id="moderation-link" label="Moderation link" value={link.data.url} />
      <div role="note" className="flex gap-3 rounded-md border border-amber-200 bg-amber-50 px-3 py-2.5 text-sm text-amber-900">
        <IconLock size={16} className="mt-0.5 shrink-0 text-amber-600" />
        <p>
          <strong className="font-semibold">{SHARE_WARNING}</strong> {SHARE_WARNING_DETAIL}
        </p>
      </div>
      <div className="border-t border-slate-100 pt-4">
        {confirming ? (
          <div role="group" aria-label="Reset the link" className="flex flex-wrap items-center gap-3 rounded-md border border-red-200 bg-red-50 px-3 py-2">
            <p className="flex-1 text-sm text-red-800">{RESET_CONFIRM}</p>
            <Button
              variant="danger"
              size="sm"
              loading={rotate.isPending}
              onClick={() =>
                rotate.mutate(undefined, {
                  onSuccess: () => {
                    setRotated(true);
                    setConfirming(false);
                  },
                })
              }
            >
              Reset link
            </Button>
            <Button variant="secondary" size="sm" autoFocus disabled={rotate.isPending} onClick={() => setConfirming(false)}>
              Cancel
            </Button>
          </div>
        ) : (
          <div className="flex flex-wrap items-center gap-3">
            <Button
              ref={resetButton}
              variant="secondary"
              size="sm"
              onClick={() => {
                rotate.reset();
                setRotated(false);
                setConfirming(true);
              }}
            >
              Reset link
            </Button>
            <span className="text-xs text-slate-500" aria-live="polite">
              {rotated ? 'Link reset: the link above is the new one; the old one no longer works.' : 'Makes a new link; the current one stops working.'}
            </span>
          </div>
        )}
        {rotate.isError ? <Alert className="mt-3">{errorMessage(rotate.error)}</Alert> : null}
      </div>
    </div>
  );
}

export function WallDeleteModal({
  count,
  open,
  onOpenChange,
  onConfirm,
}: {
  count: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: () => void;
}) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Delete posts" name="mediaWallBulkDelete">
      <p className="text-sm text-slate-700">
        Delete {count} selected post(s) from this tracker? They leave the media wall and every count of the tracker.
      </p>
      <div className="mt-5 flex justify-end gap-2">
        <Button variant="secondary" onClick={() => onOpenChange(false)}>
          Cancel
        </Button>
        <Button
          variant="danger"
          onClick={() => {
            onConfirm();
            onOpenChange(false);
          }}
        >
          Delete
        </Button>
      </div>
    </Modal>
  );
}

export const UPGRADE_TITLE = 'The media wall is not part of your plan';
export const UPGRADE_VISITOR_TITLE = 'The media wall is not available here';

/**
 * mediaWallUpgrade: a signed-in caller whose plan lacks the media wall gets the way to upgrade;
 * anyone else is told the tracker owner's plan lacks it.
 */
export function MediaWallUpgradeModal({ open, onOpenChange, signedIn }: { open: boolean; onOpenChange: (open: boolean) => void; signedIn: boolean }) {
  const upgrade = useRef<HTMLAnchorElement>(null);
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={signedIn ? UPGRADE_TITLE : UPGRADE_VISITOR_TITLE} name="mediaWallUpgrade" initialFocus={signedIn ? upgrade : undefined}>
      <UpgradeText signedIn={signedIn} />
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <Button variant="secondary" onClick={() => onOpenChange(false)}>
          Not now
        </Button>
        {signedIn ? (
          <Link
            ref={upgrade}
            to="/pricing"
            onClick={() => onOpenChange(false)}
            className="inline-flex h-9 items-center rounded-md bg-brand-600 px-4 text-sm font-medium text-white hover:bg-brand-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2"
          >
            {UPGRADE_TEXT}
          </Link>
        ) : null}
      </div>
    </Modal>
  );
}

export function UpgradeText({ signedIn }: { signedIn: boolean }) {
  return (
    <p className="text-sm leading-6 text-slate-600">
      {signedIn ? 'Your plan does not include the media wall.' : 'The plan of this tracker’s owner does not include the media wall.'} It shows the
      photos and videos a tracker collects as a live grid or slideshow, for a screen at an event or a page of your site, with moderation of what
      appears.
    </p>
  );
}
