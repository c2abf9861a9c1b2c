import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { Modal } from '../../components/Modal';
import type { EditMode } from '../../api/queries/tracker-mutations';

export interface SaveChangesModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onChoose: (mode: EditMode) => void;
  /** The mode whose request is running; its button shows the loading state. */
  pending: EditMode | null;
  error?: string | null;
}

/** Asks whether new search settings re-analyze the collected posts or apply only from now on. */
export function SaveChangesModal({ open, onOpenChange, onChoose, pending, error }: SaveChangesModalProps) {
  return (
    <Modal
      open={open}
      onOpenChange={(o) => (pending ? undefined : onOpenChange(o))}
      name="dashboardSaveChanges"
      title="Save changes"
      description="Choose how the new search settings apply to this tracker."
    >
      {error && <Alert className="mb-4">{error}</Alert>}
      <div className="space-y-3">
        <div className="flex items-center gap-4 rounded-md border border-slate-200 p-4">
          <p className="flex-1 text-sm text-slate-600">
            Re-checks the posts already collected and deletes old data that does not match the new criteria.
          </p>
          <Button className="shrink-0 whitespace-nowrap" loading={pending === 'reanalyze'} disabled={pending !== null} onClick={() => onChoose('reanalyze')}>
            Re-analyze previous data
          </Button>
        </div>
        <div className="flex items-center gap-4 rounded-md border border-slate-200 p-4">
          <p className="flex-1 text-sm text-slate-600">Keeps what was collected so far; the new criteria apply to posts collected from now on.</p>
          <Button className="shrink-0 whitespace-nowrap" variant="secondary" loading={pending === 'future'} disabled={pending !== null} onClick={() => onChoose('future')}>
            Apply only to future data
          </Button>
        </div>
      </div>
    </Modal>
  );
}
