// The Share dialog's "Share by e-mail": comma-separated addresses and a Send button. The server
// mails the dashboard link (the page's query kept) to each address through its SMTP server. Send
// waits for a non-empty field; after sending the field empties and the button says "Sent!" for
// three seconds; a refusal stays under the field with the text kept. Without an SMTP server the
// field and the button are off and a note says why.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useShareByEmail } from '../../api/queries/share';
import { IconCheck, IconMail } from '../../components/icons';
import { Spinner } from '../../components/Spinner';
import { errorMessage } from '../../lib/errors';
import { sharedQuery } from './share-link';

/** How long the Send button shows "Sent!" (the spec's 3 s for the send-email button). */
export const SEND_FEEDBACK_MS = 3000;

export const MAIL_OFF_TEXT = 'E-mail is not set up on this Hark server: its administrator can add an SMTP server.';

/** Whether a comma-separated list holds at least one address (", ," holds none). */
export function hasAddress(text: string): boolean {
  return text.split(',').some((part) => part.trim() !== '');
}

export function ShareByEmail({ hash, search, enabled }: { hash: string; search: string; enabled: boolean }) {
  const id = useId();
  const send = useShareByEmail(hash);
  const [text, setText] = useState('');
  const [sentTo, setSentTo] = useState<number | null>(null);
  const [active, setActive] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const error = send.isError ? errorMessage(send.error) : null;
  const canSend = enabled && hasAddress(text) && !send.isPending;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!canSend) return;
    setSentTo(null);
    send.mutate(
      { emails: text.trim(), query: sharedQuery(search) },
      {
        onSuccess: (r) => {
          setText('');
          setSentTo(r.sent);
          setActive(true);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => setActive(false), SEND_FEEDBACK_MS);
        },
      },
    );
  };

  const describedBy = !enabled ? `${id}-off` : error ? `${id}-error` : `${id}-hint`;
  return (
    <section aria-labelledby={`${id}-title`} className="border-t border-slate-100 pt-4">
      <h3 id={`${id}-title`} className="text-sm font-semibold text-slate-900">
        Share by e-mail
      </h3>
      <p className="text-xs text-slate-500">Each address gets the dashboard link in an e-mail.</p>
      <form onSubmit={submit} noValidate className="mt-3">
        <label htmlFor={`${id}-input`} className="mb-1 block text-sm font-medium text-slate-700">
          Email addresses
        </label>
        <div className="flex gap-2">
          <input
            id={`${id}-input`}
            type="text"
            inputMode="email"
            autoComplete="off"
            spellCheck={false}
            value={text}
            disabled={!enabled}
            readOnly={send.isPending}
            placeholder="ann@example.org, bob@example.org"
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            onChange={(e) => {
              setText(e.target.value);
              setSentTo(null);
              if (send.isError) send.reset();
            }}
            className={`block h-10 min-w-0 flex-1 rounded-md border bg-white px-3 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:outline-none focus:ring-2 focus:ring-brand-500 disabled:cursor-not-allowed disabled:bg-slate-50 disabled:placeholder:text-slate-300 ${error ? 'border-red-400' : 'border-slate-300'}`}
          />
          <button
            type="submit"
            disabled={!canSend}
            aria-busy={send.isPending || undefined}
            aria-describedby={!enabled ? `${id}-off` : undefined}
            title={!enabled ? MAIL_OFF_TEXT : undefined}
            data-active={active || undefined}
            className={`inline-flex h-10 min-w-28 shrink-0 items-center justify-center gap-2 rounded-md px-4 text-sm font-medium text-white transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed ${active ? 'bg-green-600' : 'bg-brand-600 hover:bg-brand-700 disabled:bg-brand-600/50 disabled:hover:bg-brand-600/50'}`}
          >
            {send.isPending ? <Spinner className="h-4 w-4" /> : active ? <IconCheck size={16} /> : <IconMail size={16} />}
            {send.isPending ? 'Sending…' : active ? 'Sent!' : 'Send'}
          </button>
        </div>
        {!enabled ? (
          <p id={`${id}-off`} className="mt-1.5 text-xs text-slate-600">
            {MAIL_OFF_TEXT}
          </p>
        ) : error ? (
          <p id={`${id}-error`} role="alert" className="mt-1 text-sm text-red-600">
            {error}
          </p>
        ) : (
          <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
            Separate addresses with commas.
          </p>
        )}
        <p aria-live="polite" className="mt-1 text-sm text-green-700" data-testid="share-email-status">
          {sentTo !== null ? `Sent to ${sentTo} ${sentTo === 1 ? 'address' : 'addresses'}.` : ''}
        </p>
      </form>
    </section>
  );
}
