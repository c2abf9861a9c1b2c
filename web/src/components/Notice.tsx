// The timed notice at the bottom of the page (posts, influencers, exports): a text, an optional
// Undo or link, gone after its time.
import { useEffect, useRef } from 'react';

export interface NoticeState {
  id: number;
  text: string;
  tone: 'ok' | 'error' | 'info';
  undo?: () => void;
  /** A link after the text (e.g. Download); `download` makes it download rather than open. */
  link?: { label: string; href: string; download?: boolean };
  ms: number;
}

export function Notice({ notice, onDone }: { notice: NoticeState | null; onDone: () => void }) {
  // The notice's time runs from when it shows, however often the page renders meanwhile.
  const done = useRef(onDone);
  done.current = onDone;
  useEffect(() => {
    if (!notice) return;
    const t = setTimeout(() => done.current(), notice.ms);
    return () => clearTimeout(t);
  }, [notice]);
  if (!notice) return null;
  const tone = notice.tone === 'error' ? 'bg-red-700' : notice.tone === 'info' ? 'bg-brand-700' : 'bg-slate-900';
  return (
    <div role="status" className={`fixed bottom-6 left-1/2 z-50 flex -translate-x-1/2 items-center gap-4 rounded-lg px-4 py-3 text-sm text-white shadow-xl ${tone}`} data-testid="notice">
      <span>{notice.text}</span>
      {notice.undo ? (
        <button
          type="button"
          className="font-semibold underline"
          onClick={() => {
            notice.undo?.();
            onDone();
          }}
        >
          Undo
        </button>
      ) : null}
      {notice.link ? (
        <a
          href={notice.link.href}
          download={notice.link.download ? '' : undefined}
          className="rounded font-semibold underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
        >
          {notice.link.label}
        </a>
      ) : null}
    </div>
  );
}
