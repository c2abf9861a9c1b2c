// The timed notice at the bottom of the page (posts, influencers, exports): a text, an optional
// Undo, action or link, gone after its time (or, without one, when acted on or dismissed).
// Notices shown at once stack in one column rather than on top of each other.
import { useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { IconX } from './icons';

export interface NoticeState {
  id: number;
  text: string;
  tone: 'ok' | 'error' | 'info';
  undo?: () => void;
  /** A button after the text (e.g. 'View PDF', 'Try Again'); the notice closes when it is used, unless it answers false. */
  action?: { label: string; onClick: () => void | boolean };
  /**
   * A link after the text (e.g. Download); `download` makes it download rather than open, `newTab`
   * opens it in a new tab (with no handle on this page) and closes the notice.
   */
  link?: { label: string; href: string; download?: boolean; newTab?: boolean };
  /** How long it shows; null: until it is acted on or dismissed (it then has a close button). */
  ms: number | null;
}

const STACK_ID = 'hark-notices';

/** The one column every notice of the page goes into, bottom centre. */
function noticeStack(): HTMLElement {
  let el = document.getElementById(STACK_ID);
  if (!el) {
    el = document.createElement('div');
    el.id = STACK_ID;
    el.className = 'pointer-events-none fixed bottom-6 left-1/2 z-50 flex w-max max-w-[calc(100vw-2rem)] -translate-x-1/2 flex-col items-center gap-2';
    document.body.appendChild(el);
  }
  return el;
}

const control = 'shrink-0 rounded font-semibold underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white';

export function Notice({ notice, onDone }: { notice: NoticeState | null; onDone: () => void }) {
  // The notice's time runs from when it shows, however often the page renders meanwhile.
  const done = useRef(onDone);
  done.current = onDone;
  useEffect(() => {
    if (!notice || notice.ms === null) return;
    const t = setTimeout(() => done.current(), notice.ms);
    return () => clearTimeout(t);
  }, [notice]);
  if (!notice) return null;
  const tone = notice.tone === 'error' ? 'bg-red-700' : notice.tone === 'info' ? 'bg-brand-700' : 'bg-slate-900';
  return createPortal(
    <div role="status" className={`pointer-events-auto flex items-center gap-4 rounded-lg px-4 py-3 text-sm text-white shadow-xl ${tone}`} data-testid="notice">
      <span>{notice.text}</span>
      {notice.undo ? (
        <button
          type="button"
          className={control}
          onClick={() => {
            notice.undo?.();
            onDone();
          }}
        >
          Undo
        </button>
      ) : null}
      {notice.action ? (
        <button
          type="button"
          className={control}
          onClick={() => {
            if (notice.action?.onClick() !== false) onDone();
          }}
        >
          {notice.action.label}
        </button>
      ) : null}
      {notice.link ? (
        notice.link.newTab ? (
          <a href={notice.link.href} target="_blank" rel="noopener noreferrer" className={control} onClick={() => setTimeout(onDone, 0)}>
            {notice.link.label}
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        ) : (
          <a href={notice.link.href} download={notice.link.download ? '' : undefined} className={control}>
            {notice.link.label}
          </a>
        )
      ) : null}
      {notice.ms === null ? (
        <button
          type="button"
          aria-label="Dismiss"
          title="Dismiss"
          className="-mr-1 shrink-0 rounded p-0.5 text-white/70 hover:text-white focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-white"
          onClick={onDone}
        >
          <IconX size={14} />
        </button>
      ) : null}
    </div>,
    noticeStack(),
  );
}
