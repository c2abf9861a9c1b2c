// High-volume warning (modal highVolumeWarning, tracker-lifecycle.md section 8): a new tracker
// whose term is estimated above the threshold. Stop and delete it (or edit the keywords when it
// was just created from the form), or let it continue.
import { useState } from 'react';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { Modal } from '../../components/Modal';

export const HIGH_VOLUME_TEXT = 'This keyword has extremely high volume and will consume your data limits very quickly...';

export interface HighVolumeModalProps {
  open: boolean;
  /** The estimate behind the warning: posts over `windowDays`. */
  estimate: { total: number; windowDays: number } | null;
  /** Reached from the creation flow: offer to edit the keywords instead of only deleting. */
  fromCreation: boolean;
  /** Deletes the tracker (then edits keywords or leaves); rejects when deleting failed. */
  onStop: () => Promise<void>;
  onContinue: () => void;
}

export function HighVolumeModal({ open, estimate, fromCreation, onStop, onContinue }: HighVolumeModalProps) {
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const stop = async () => {
    setBusy(true);
    setFailed(false);
    try {
      await onStop();
    } catch {
      setFailed(true);
      setBusy(false);
    }
  };
  return (
    <Modal open={open} onOpenChange={(o) => !o && !busy && onContinue()} name="highVolumeWarning" title="High volume keyword">
      <div className="space-y-4 text-sm text-slate-600">
        <p className="font-medium text-slate-800">{HIGH_VOLUME_TEXT}</p>
        {estimate ? (
          <p>
            About <strong className="tabular-nums text-slate-900">{new Intl.NumberFormat('en-US').format(estimate.total)}</strong> posts matched in
            the last {estimate.windowDays === 1 ? 'day' : `${estimate.windowDays} days`}.
          </p>
        ) : null}
        {failed ? <Alert>The tracker could not be deleted. Please try again.</Alert> : null}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={onContinue} disabled={busy}>
            Let it continue
          </Button>
          <Button variant="danger" onClick={stop} loading={busy}>
            {fromCreation ? 'Edit keywords' : 'Stop and delete'}
          </Button>
        </div>
      </div>
    </Modal>
  );
}
