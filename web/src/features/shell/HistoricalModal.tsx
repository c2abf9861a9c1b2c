// Historical-data modal: trial mode for trial users, estimate mode otherwise.
import { Link } from 'react-router';
import { Modal } from '../../components/Modal';

export function HistoricalModal({ open, onOpenChange, trial, title }: { open: boolean; onOpenChange: (o: boolean) => void; trial: boolean; title: string }) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      name="historicalData"
      title="Historical Data"
      description={trial ? 'Historical data is not included in the trial.' : 'Get posts from before this tracker started collecting.'}
    >
      {trial ? (
        <div className="space-y-3 text-sm text-slate-600">
          <p>
            Your trial tracker <strong className="font-semibold text-slate-800">{title}</strong> collects posts from the moment it was created.
            Upgrade to add posts published before that.
          </p>
          <div className="flex justify-end gap-2">
            <Link to="/pricing" className="rounded-md bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600">
              See plans
            </Link>
          </div>
        </div>
      ) : (
        <div className="space-y-3 text-sm text-slate-600">
          <p>
            Tell us the period you need for <strong className="font-semibold text-slate-800">{title}</strong> and we will send an estimate of the
            posts and the cost of collecting them.
          </p>
          <div className="flex justify-end gap-2">
            <Link to="/contact-us?product=historical-data" className="rounded-md bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600">
              Request an estimate
            </Link>
          </div>
        </div>
      )}
    </Modal>
  );
}
