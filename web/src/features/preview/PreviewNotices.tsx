// Preview notices (tracker-lifecycle.md section 4): a loading notice shown 1000 ms into preview
// mode, and the notice that ends it.
import { useEffect, useState } from 'react';
import { IconX } from '../../components/icons';

export const LOADING_NOTICE_DELAY_MS = 1000;
export const LOADING_NOTICE = 'Collecting a sample of posts for your new tracker. They appear on the dashboard as they arrive.';

export interface Notice {
  tone: 'success' | 'error';
  text: string;
}

/** "Preview complete: 12 posts from the last 2 weeks. New posts keep arriving." */
export function completionText(total: number, trial: boolean): string {
  const window = trial ? 'the last 24 hours' : 'the last 2 weeks';
  const n = new Intl.NumberFormat('en-US').format(total);
  return `Preview complete: ${n} ${total === 1 ? 'post' : 'posts'} from ${window}. New posts keep arriving.`;
}

/** True once `on` has held for the delay. */
export function useDelayed(on: boolean, delayMs = LOADING_NOTICE_DELAY_MS): boolean {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!on) {
      setShown(false);
      return;
    }
    const t = setTimeout(() => setShown(true), delayMs);
    return () => clearTimeout(t);
  }, [on, delayMs]);
  return shown;
}

export function PreviewNotices({ loading, notice, onDismiss }: { loading: boolean; notice: Notice | null; onDismiss: () => void }) {
  if (!loading && !notice) return null;
  return (
    <div className="pointer-events-none fixed bottom-4 right-4 z-40 flex w-[min(92vw,380px)] flex-col gap-2">
      {loading && !notice ? (
        <div role="status" data-notice="preview-loading" className="pointer-events-auto flex items-start gap-3 rounded-lg border border-sky-200 bg-sky-50 px-4 py-3 text-sm text-sky-900 shadow-lg">
          <span className="mt-1 h-2 w-2 shrink-0 animate-pulse rounded-full bg-sky-500" aria-hidden="true" />
          <span>{LOADING_NOTICE}</span>
        </div>
      ) : null}
      {notice ? (
        <div
          role={notice.tone === 'error' ? 'alert' : 'status'}
          data-notice={notice.tone === 'error' ? 'preview-error' : 'preview-complete'}
          className={`pointer-events-auto flex items-start gap-3 rounded-lg border px-4 py-3 text-sm shadow-lg ${
            notice.tone === 'error' ? 'border-red-200 bg-red-50 text-red-900' : 'border-emerald-200 bg-emerald-50 text-emerald-900'
          }`}
        >
          <span className="flex-1">{notice.text}</span>
          <button type="button" onClick={onDismiss} aria-label="Dismiss" className="rounded p-0.5 opacity-70 hover:opacity-100 focus-visible:outline-2 focus-visible:outline-brand-600">
            <IconX size={14} />
          </button>
        </div>
      ) : null}
    </div>
  );
}
