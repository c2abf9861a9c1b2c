// dashboardShare: the link to the dashboard with a copy button (active state for 2 s).
import { useEffect, useRef, useState } from 'react';
import type { Tracker } from '../../api/types';
import { IconCheck, IconCopy } from '../../components/icons';
import { Modal } from '../../components/Modal';
import { trackerPath } from '../../state/routes';

export const COPY_FEEDBACK_MS = 2000;

/** The shared dashboard link: the current query kept, shareHash added when the tracker has one. */
export function dashboardShareUrl(origin: string, tracker: Pick<Tracker, 'hash' | 'friendly' | 'customUrl' | 'shareHash'>, search: string): string {
  const params = new URLSearchParams(search);
  if (tracker.shareHash) params.set('shareHash', tracker.shareHash);
  const q = params.toString();
  return `${origin}${trackerPath('dashboard', tracker.hash, tracker.customUrl || tracker.friendly)}${q ? `?${q}` : ''}`;
}

export function ShareModal({ open, onOpenChange, url }: { open: boolean; onOpenChange: (o: boolean) => void; url: string }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      const input = document.getElementById('dashboard-share-link') as HTMLInputElement | null;
      input?.select();
      document.execCommand?.('copy');
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPY_FEEDBACK_MS);
  }

  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Share this dashboard" description="Anyone with this link can view the dashboard." name="dashboardShare">
      <label htmlFor="dashboard-share-link" className="mb-1 block text-sm font-medium text-slate-700">
        Dashboard link
      </label>
      <div className="flex gap-2">
        <input
          id="dashboard-share-link"
          readOnly
          value={url}
          onFocus={(e) => e.currentTarget.select()}
          className="h-10 min-w-0 flex-1 rounded-md border border-slate-300 bg-slate-50 px-3 text-sm text-slate-700 focus-visible:outline-2 focus-visible:outline-brand-600"
        />
        <button
          type="button"
          onClick={copy}
          data-active={copied || undefined}
          className={`inline-flex h-10 items-center gap-2 rounded-md px-4 text-sm font-medium text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${copied ? 'bg-green-600' : 'bg-brand-600 hover:bg-brand-700'}`}
        >
          {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
          {copied ? 'Copied!' : 'Copy'}
        </button>
      </div>
    </Modal>
  );
}
