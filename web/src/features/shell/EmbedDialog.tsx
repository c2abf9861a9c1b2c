// The dashboard embed dialog: the iframe code of one chart or one page (GET /embed) in a read-only
// box with a Copy button (active for 2 s), the embed address, its height and an optional preview.
import { useEffect, useId, useRef, useState } from 'react';
import { useEmbedCode, type EmbedCode, type EmbedTarget } from '../../api/queries/embed';
import { COPY_FEEDBACK_MS } from '../../components/CopyField';
import { IconCheck, IconCopy } from '../../components/icons';
import { LoadError } from '../../components/LoadError';
import { Modal } from '../../components/Modal';
import { LoadingState } from '../../components/Spinner';

export interface EmbedDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  hash: string;
  target: EmbedTarget;
  /** What is embedded, for the title: "Timeline", "the posts page". */
  label: string;
}

export function EmbedDialog({ open, onOpenChange, hash, target, label }: EmbedDialogProps) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={`Embed ${label}`}
      description="Paste this code into a page of your site. Its visitors see it without signing in; revoking the share link turns it off."
      name="dashboardEmbed"
      wide
    >
      <EmbedBody hash={hash} target={target} />
    </Modal>
  );
}

function EmbedBody({ hash, target }: { hash: string; target: EmbedTarget }) {
  const code = useEmbedCode(hash, target, true);
  if (code.isPending) return <LoadingState label="Loading the embed code…" />;
  if (code.isError) return <LoadError error={code.error} onRetry={() => code.refetch()} compact />;
  return <EmbedCodeView code={code.data} />;
}

function EmbedCodeView({ code }: { code: EmbedCode }) {
  const id = useId();
  const box = useRef<HTMLTextAreaElement>(null);
  const [copied, setCopied] = useState(false);
  const [preview, setPreview] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(code.iframe);
    } catch {
      box.current?.select();
      document.execCommand?.('copy');
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPY_FEEDBACK_MS);
  }

  const fills = code.height.endsWith('%');
  return (
    <div className="space-y-4">
      <div>
        <div className="mb-1 flex items-end justify-between gap-3">
          <label htmlFor={`${id}-code`} className="block text-sm font-medium text-slate-700">
            Embed code
          </label>
          <button
            type="button"
            onClick={copy}
            data-active={copied || undefined}
            className={`inline-flex h-9 shrink-0 items-center gap-2 rounded-md px-4 text-sm font-medium text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${copied ? 'bg-green-600' : 'bg-brand-600 hover:bg-brand-700'}`}
          >
            {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
            {copied ? 'Copied!' : 'Copy'}
          </button>
        </div>
        <textarea
          id={`${id}-code`}
          ref={box}
          readOnly
          rows={4}
          value={code.iframe}
          onFocus={(e) => e.currentTarget.select()}
          className="w-full resize-none rounded-md border border-slate-300 bg-slate-50 p-2 font-mono text-xs leading-relaxed text-slate-700 focus-visible:outline-2 focus-visible:outline-brand-600"
        />
      </div>
      <div>
        <label htmlFor={`${id}-url`} className="mb-1 block text-sm font-medium text-slate-700">
          Embed address
        </label>
        <input
          id={`${id}-url`}
          readOnly
          value={code.url}
          onFocus={(e) => e.currentTarget.select()}
          className="h-10 w-full rounded-md border border-slate-300 bg-slate-50 px-3 text-sm text-slate-700 focus-visible:outline-2 focus-visible:outline-brand-600"
        />
      </div>
      <dl className="flex flex-wrap items-center gap-x-6 gap-y-1 text-sm">
        <div className="flex gap-2">
          <dt className="text-slate-500">Height</dt>
          <dd className="font-medium text-slate-800" data-testid="embed-height">
            {fills ? `${code.height} of the space around it` : `${code.height} px`}
          </dd>
        </div>
        <div className="flex gap-2">
          <dt className="text-slate-500">Width</dt>
          <dd className="font-medium text-slate-800">100%</dd>
        </div>
        <div className="ml-auto">
          <button type="button" className="text-sm font-medium text-brand-700 hover:underline" aria-expanded={preview} onClick={() => setPreview((p) => !p)}>
            {preview ? 'Hide preview' : 'Show preview'}
          </button>
        </div>
      </dl>
      {preview ? (
        <iframe
          src={code.url}
          title="Embed preview"
          width="100%"
          // A media wall fills its container; the preview gives it a fixed 400 px to fill.
          height={fills ? 400 : Number(code.height) || 400}
          className="rounded-md border border-slate-200"
        />
      ) : null}
    </div>
  );
}
