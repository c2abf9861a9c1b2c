import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { Modal } from '../../components/Modal';

export interface DeleteTrackerDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  onConfirm: () => void;
  pending: boolean;
  error?: string | null;
}

export function DeleteTrackerDialog({ open, onOpenChange, title, onConfirm, pending, error }: DeleteTrackerDialogProps) {
  return (
    <Modal
      open={open}
      onOpenChange={(o) => (pending ? undefined : onOpenChange(o))}
      name="deleteTracker"
      title="Delete tracker?"
      description={`“${title}” and all the posts it collected will be deleted. This cannot be undone.`}
    >
      {error && <Alert className="mb-4">{error}</Alert>}
      <div className="flex justify-end gap-3">
        <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={pending}>
          Cancel
        </Button>
        <Button variant="danger" onClick={onConfirm} loading={pending}>
          Delete tracker
        </Button>
      </div>
    </Modal>
  );
}
