// The sample-download modal (dashboard-and-shell spec, plan gating): a plan without XLS gets a
// sample workbook of made-up posts and the way to upgrade instead of a report. The export page
// shows the same body when the server answers that the plan lacks XLS.
import { useRef, type Ref } from 'react';
import { Link } from 'react-router';
import { SAMPLE_XLSX_URL } from '../../api/queries/exports';
import { IconDownload } from '../../components/icons';
import { Modal } from '../../components/Modal';
import { LINK_SHARING_LOCK_TEXT as UPGRADE_TEXT } from '../shell/ShareModal';

export const SAMPLE_TITLE = 'XLS reports are not part of your plan';
export const SAMPLE_VISITOR_TITLE = 'XLS reports are not available here';
export const SAMPLE_LINK_TEXT = 'Download a sample';
export { UPGRADE_TEXT };

const linkClass =
  'inline-flex h-9 items-center gap-2 rounded-md px-4 text-sm font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2';

export const sampleTitle = (signedIn: boolean) => (signedIn ? SAMPLE_TITLE : SAMPLE_VISITOR_TITLE);

/**
 * `signedIn`: the caller's own plan lacks XLS (upgrade link shown). A share-link visitor is told
 * the tracker owner's plan lacks it, with the sample only.
 */
export function SampleXlsBody({ signedIn, onUpgrade, sampleRef }: { signedIn: boolean; onUpgrade?: () => void; sampleRef?: Ref<HTMLAnchorElement> }) {
  return (
    <>
      <p className="text-sm leading-6 text-slate-600">
        {signedIn ? 'Your plan does not include XLS reports of a dashboard.' : 'The plan of this tracker’s owner does not include XLS reports.'} A sample
        shows what one holds: a sheet for each dashboard panel, with its chart, and every post with its figures. Its posts are made up.
      </p>
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <a ref={sampleRef} href={SAMPLE_XLSX_URL} download className={`${linkClass} border border-slate-300 bg-white text-slate-700 hover:bg-slate-50`}>
          <IconDownload size={16} />
          {SAMPLE_LINK_TEXT}
        </a>
        {signedIn ? (
          <Link to="/pricing" onClick={onUpgrade} className={`${linkClass} bg-brand-600 text-white hover:bg-brand-700`}>
            {UPGRADE_TEXT}
          </Link>
        ) : null}
      </div>
    </>
  );
}

export function SampleXlsModal({ open, onOpenChange, signedIn }: { open: boolean; onOpenChange: (open: boolean) => void; signedIn: boolean }) {
  const sample = useRef<HTMLAnchorElement>(null);
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={sampleTitle(signedIn)} name="sampleXls" initialFocus={sample}>
      <SampleXlsBody signedIn={signedIn} sampleRef={sample} onUpgrade={() => onOpenChange(false)} />
    </Modal>
  );
}
