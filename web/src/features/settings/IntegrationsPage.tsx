// /settings/integrations: the instance administrator sets up the outside services exports use.
// Google Sheets: the JSON key of a Google Cloud service account (a file chosen or dropped, or its
// text pasted), an optional API base URL, a connection test and removal. The saved key is never
// shown again; the page says whose it is and how its last test went.
import { useId, useRef, useState, type DragEvent, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../api/client';
import {
  useCheckGoogleSheets,
  useGoogleSheetsIntegration,
  useRemoveGoogleSheets,
  useSaveGoogleSheets,
  type GoogleSheetsIntegration,
} from '../../api/queries/integrations';
import { useMe } from '../../api/queries/me';
import { Alert, FieldMessage } from '../../components/Alert';
import { AppHeader } from '../../components/AppHeader';
import { Button } from '../../components/Button';
import { IconTable, IconUpload, IconX } from '../../components/icons';
import { LoadError } from '../../components/LoadError';
import { Modal } from '../../components/Modal';
import { LoadingState } from '../../components/Spinner';
import { TextField } from '../../components/TextField';
import { errorMessage } from '../../lib/errors';
import { RequireSignIn } from '../auth';
import { checkLabel, keyPreview, MISSING_KEY_TEXT, sheetsStatus, type KeyPreview, type SheetsStatus } from './integration-form';

export const NOT_ADMIN_INTEGRATIONS_TEXT = 'Only an instance administrator can manage integrations.';

export function IntegrationsPage() {
  return (
    <RequireSignIn>
      <Integrations />
    </RequireSignIn>
  );
}

function Page({ children }: { children: React.ReactNode }) {
  return (
    <div className="min-h-screen bg-slate-50">
      <AppHeader />
      <main className="mx-auto max-w-4xl px-4 py-8">{children}</main>
    </div>
  );
}

function Integrations() {
  const me = useMe();
  const isAdmin = me.data?.isAdmin === true;
  const view = useGoogleSheetsIntegration(isAdmin);
  if (me.isPending) return <Page><LoadingState label="Loading…" /></Page>;
  if (!isAdmin) {
    return (
      <Page>
        <h1 className="text-2xl font-semibold text-slate-900">Integrations</h1>
        <Alert className="mt-6">{NOT_ADMIN_INTEGRATIONS_TEXT}</Alert>
        <Link to="/mytracks/hashtag" className="mt-4 inline-block text-sm font-medium text-brand-700 hover:underline">
          Back to the tracker list
        </Link>
      </Page>
    );
  }
  return (
    <Page>
      <h1 className="text-2xl font-semibold text-slate-900">Integrations</h1>
      <p className="mt-1 max-w-2xl text-sm text-slate-600">
        Outside services Hark works with. Each one is set up once for the whole server and is then on offer to everyone who may
        export.
      </p>
      <div className="mt-6 space-y-6">
        {view.isPending ? (
          <div className="rounded-lg border border-slate-200 bg-white shadow-sm">
            <LoadingState label="Loading Google Sheets…" />
          </div>
        ) : view.isError ? (
          <div className="rounded-lg border border-slate-200 bg-white shadow-sm">
            <LoadError error={view.error} onRetry={() => view.refetch()} />
          </div>
        ) : (
          <GoogleSheetsCard view={view.data} />
        )}
      </div>
    </Page>
  );
}

const STATUS_STYLE: Record<SheetsStatus, string> = {
  working: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  failed: 'bg-red-50 text-red-800 ring-red-200',
  not_configured: 'bg-slate-100 text-slate-700 ring-slate-200',
  unchecked: 'bg-amber-50 text-amber-900 ring-amber-200',
};

const STATUS_LABEL: Record<SheetsStatus, string> = {
  working: 'Working',
  failed: 'Check failed',
  not_configured: 'Not set up',
  unchecked: 'Not tested',
};

/** The key to send: its text, and where it came from (a file's name, or pasted). */
interface KeyChoice {
  text: string;
  from: 'file' | 'paste';
  name: string | null;
}

function GoogleSheetsCard({ view }: { view: GoogleSheetsIntegration }) {
  const ids = { title: useId(), file: useId(), fileHint: useId(), paste: useId(), keyError: useId() };
  const [key, setKey] = useState<KeyChoice | null>(null);
  const [apiBase, setApiBase] = useState(view.apiBase ?? '');
  const [missing, setMissing] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [readError, setReadError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [pasteOpen, setPasteOpen] = useState(false);
  const [advancedOpen, setAdvancedOpen] = useState(!!view.apiBase);
  const fileInput = useRef<HTMLInputElement>(null);
  const save = useSaveGoogleSheets();
  const check = useCheckGoogleSheets();
  const remove = useRemoveGoogleSheets();
  const status = sheetsStatus(view);
  const preview: KeyPreview | null = key ? keyPreview(key.text) : null;

  const saveError = save.error instanceof ApiError ? save.error : save.error ? new ApiError(0, 'unknown', errorMessage(save.error)) : null;
  const baseUrlError = saveError?.code === 'invalid_base_url' ? saveError.message : undefined;
  const keyError = saveError && saveError.code !== 'invalid_base_url' ? saveError.message : null;

  const reset = () => {
    setDone(null);
    save.reset();
    check.reset();
    remove.reset();
  };

  const readFile = async (file: File | undefined | null) => {
    if (!file) return;
    reset();
    setMissing(false);
    setReadError(null);
    try {
      setKey({ text: await file.text(), from: 'file', name: file.name });
    } catch {
      setReadError('This file could not be read. Choose it again, or paste its text below.');
    }
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    void readFile(e.dataTransfer.files?.[0]);
  };

  const clearKey = () => {
    setKey(null);
    if (fileInput.current) fileInput.current.value = '';
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    reset();
    const text = key?.text.trim() ?? '';
    if (!text && !view.configured) {
      setMissing(true);
      return;
    }
    setMissing(false);
    save.mutate(
      { ...(text ? { key: text } : {}), apiBase: apiBase.trim() || null },
      {
        onSuccess: (saved) => {
          clearKey();
          setApiBase(saved.apiBase ?? '');
          setDone(text ? 'The key was saved. Test the connection to make sure it works.' : 'Saved.');
        },
        onError: (err) => {
          if (err instanceof ApiError && err.code === 'invalid_base_url') setAdvancedOpen(true);
        },
      },
    );
  };

  const test = () => {
    reset();
    check.mutate();
  };

  return (
    <section aria-labelledby={ids.title} className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm" data-testid="google-sheets-card">
      <div className="flex items-start justify-between gap-3">
        <div className="flex min-w-0 flex-1 items-start gap-3">
          <span aria-hidden="true" className="mt-0.5 flex h-9 w-9 shrink-0 items-center justify-center rounded-md bg-green-50 text-green-700 ring-1 ring-inset ring-green-200">
            <IconTable size={20} />
          </span>
          <div className="min-w-0">
            <h2 id={ids.title} className="text-base font-semibold text-slate-900">
              Google Sheets
            </h2>
            <p className="mt-1 text-sm text-slate-600">
              Lets people export a dashboard or a posts list as a new Google spreadsheet. The spreadsheet is made by a Google Cloud
              service account and shared with the person who exports it.
            </p>
          </div>
        </div>
        <span
          className={`inline-flex shrink-0 items-center rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset ${STATUS_STYLE[status]}`}
          data-testid="sheets-status-pill"
        >
          {STATUS_LABEL[status]}
        </span>
      </div>

      <dl className="mt-4 grid gap-x-6 gap-y-2 rounded-md bg-slate-50 px-4 py-3 text-sm sm:grid-cols-[8rem_1fr]" data-testid="sheets-status">
        <dt className="font-medium text-slate-500">Status</dt>
        <dd className="min-w-0 break-words text-slate-800">
          {view.configured ? (
            <>
              Set up: service account <span className="font-medium">{view.clientEmail}</span> of project{' '}
              <span className="font-medium">{view.projectId}</span>
              {view.updatedAt ? <span className="text-slate-500"> · saved {new Date(view.updatedAt).toLocaleString()}</span> : null}
            </>
          ) : (
            'Not set up'
          )}
        </dd>
        {view.configured ? (
          <>
            <dt className="font-medium text-slate-500">Last test</dt>
            <dd
              className={`min-w-0 break-words ${view.check.state === 'ok' ? 'text-emerald-800' : view.check.state === 'failed' ? 'text-red-700' : 'text-slate-600'}`}
              data-testid="sheets-check"
            >
              {checkLabel(view.check)}
              {view.check.checkedAt ? <span className="text-slate-500"> · {new Date(view.check.checkedAt).toLocaleString()}</span> : null}
            </dd>
          </>
        ) : null}
      </dl>

      <details className="group mt-4 rounded-md border border-slate-200 text-sm text-slate-600 open:bg-white">
        <summary className="cursor-pointer select-none rounded-md px-4 py-2.5 font-medium text-slate-700 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600">
          How to get a key in Google Cloud
        </summary>
        <div className="space-y-2 px-4 pb-4 pt-1">
          <ol className="list-decimal space-y-1 pl-5">
            <li>In the Google Cloud console, choose or create a project and enable the Google Sheets API and the Google Drive API.</li>
            <li>Under IAM &amp; Admin → Service accounts, create a service account. It needs no roles.</li>
            <li>Open the service account, then Keys → Add key → Create new key, choose JSON and download the file.</li>
            <li>Upload that file here, save, and test the connection.</li>
          </ol>
        </div>
      </details>

      <form onSubmit={submit} noValidate className="mt-5 space-y-4" aria-label="Google Sheets settings">
        <div>
          <p className="block text-sm font-medium text-slate-700" id={`${ids.file}-label`}>
            Service account key (JSON)
          </p>
          <div
            onDragOver={(e) => {
              e.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
            className={`mt-1 flex flex-col items-center justify-center gap-2 rounded-md border-2 border-dashed px-4 py-6 text-center text-sm transition-colors ${
              dragging ? 'border-brand-500 bg-brand-50' : missing || keyError || readError ? 'border-red-300 bg-red-50/40' : 'border-slate-300 bg-slate-50/50'
            }`}
            data-testid="sheets-key-drop"
          >
            <IconUpload size={22} className="text-slate-400" />
            <div className="text-slate-600">
              <input
                ref={fileInput}
                id={ids.file}
                type="file"
                accept=".json,application/json"
                className="peer sr-only"
                aria-label="Service account key file"
                aria-describedby={[ids.fileHint, missing || readError ? ids.keyError : ''].filter(Boolean).join(' ')}
                onChange={(e) => void readFile(e.target.files?.[0])}
              />
              <label
                htmlFor={ids.file}
                className="cursor-pointer rounded font-medium text-brand-700 hover:underline peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-600"
              >
                Choose the key file
              </label>{' '}
              or drop it here
            </div>
            <p id={ids.fileHint} className="text-xs text-slate-500">
              {view.configured ? 'A new key replaces the saved one. ' : ''}The key is stored encrypted on this server and is never shown again.
            </p>
          </div>
          {key ? (
            <div className="mt-2 flex items-start justify-between gap-3 rounded-md border border-slate-200 bg-white px-3 py-2 text-sm" data-testid="sheets-key-chosen">
              <div className="min-w-0">
                <p className="truncate font-medium text-slate-800">{key.from === 'file' ? key.name : 'Pasted key'}</p>
                <p className={`text-xs ${preview?.ok ? 'text-slate-500' : 'text-amber-800'}`}>{preview?.text}</p>
              </div>
              <button
                type="button"
                onClick={clearKey}
                aria-label="Clear the chosen key"
                title="Clear the chosen key"
                className="rounded p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-brand-600"
              >
                <IconX size={16} />
              </button>
            </div>
          ) : null}
          <FieldMessage id={ids.keyError}>{missing ? MISSING_KEY_TEXT : readError}</FieldMessage>
        </div>

        <details className="text-sm" open={pasteOpen} onToggle={(e) => setPasteOpen(e.currentTarget.open)}>
          <summary className="cursor-pointer select-none rounded font-medium text-slate-700 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600">
            Paste the key’s text instead
          </summary>
          <div className="mt-2">
            <label htmlFor={ids.paste} className="block text-sm font-medium text-slate-700">
              Key text (JSON)
            </label>
            <textarea
              id={ids.paste}
              rows={5}
              spellCheck={false}
              autoComplete="off"
              value={key?.from === 'paste' ? key.text : ''}
              placeholder={'{ "type": "service_account", "project_id": "…", "private_key": "…", "client_email": "…" }'}
              onChange={(e) => {
                if (done || save.isError) reset();
                setMissing(false);
                if (fileInput.current) fileInput.current.value = '';
                setKey(e.target.value ? { text: e.target.value, from: 'paste', name: null } : null);
              }}
              className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-xs text-slate-900 shadow-sm placeholder:text-slate-400 focus:outline-none focus:ring-2 focus:ring-brand-500"
            />
          </div>
        </details>

        <details className="text-sm" open={advancedOpen} onToggle={(e) => setAdvancedOpen(e.currentTarget.open)}>
          <summary className="cursor-pointer select-none rounded font-medium text-slate-700 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600">
            Advanced
          </summary>
          <TextField
            className="mt-2 max-w-lg"
            label="API base URL (optional)"
            value={apiBase}
            hint="Leave empty for Google. Set it only to send the Sheets and Drive calls through a proxy."
            error={baseUrlError}
            inputMode="url"
            autoComplete="off"
            onChange={(e) => setApiBase(e.target.value)}
          />
        </details>

        {keyError ? <Alert>{keyError}</Alert> : null}
        {check.isError ? <Alert>{errorMessage(check.error)}</Alert> : null}
        {remove.isError ? <Alert>{errorMessage(remove.error)}</Alert> : null}

        <div className="flex flex-wrap items-center gap-3 border-t border-slate-100 pt-4">
          <Button type="submit" loading={save.isPending}>
            Save
          </Button>
          <Button
            variant="secondary"
            loading={check.isPending}
            disabled={!view.configured || save.isPending}
            title={view.configured ? undefined : 'Save a key first.'}
            onClick={test}
          >
            Test connection
          </Button>
          <span role="status" className="min-w-0 flex-1 text-sm" data-testid="sheets-result">
            {done ? (
              <span className="text-emerald-700">{done}</span>
            ) : check.data && !check.isPending ? (
              check.data.check.state === 'ok' ? (
                <span className="text-emerald-700">The connection works.</span>
              ) : (
                <span className="text-red-700">The connection failed{check.data.check.message ? `: ${check.data.check.message}` : '.'}</span>
              )
            ) : null}
          </span>
          {view.configured ? (
            <button
              type="button"
              onClick={() => setConfirmRemove(true)}
              aria-haspopup="dialog"
              className="inline-flex h-9 items-center rounded-md px-3 text-sm font-medium text-red-700 hover:bg-red-50 hover:text-red-800 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-red-500 focus-visible:ring-offset-2"
            >
              Remove
            </button>
          ) : null}
        </div>
      </form>

      <RemoveDialog
        open={confirmRemove}
        onOpenChange={setConfirmRemove}
        pending={remove.isPending}
        onConfirm={() => {
          reset();
          remove.mutate(undefined, {
            onSuccess: () => {
              setConfirmRemove(false);
              clearKey();
              setDone('The key was removed. Spreadsheet exports are off until a new one is saved.');
            },
            onError: () => setConfirmRemove(false),
          });
        }}
      />
    </section>
  );
}

function RemoveDialog({ open, onOpenChange, pending, onConfirm }: { open: boolean; onOpenChange: (o: boolean) => void; pending: boolean; onConfirm: () => void }) {
  const cancel = useRef<HTMLButtonElement>(null);
  return (
    <Modal open={open} onOpenChange={(o) => !pending && onOpenChange(o)} title="Remove the Google Sheets key?" name="removeSheetsKey" initialFocus={cancel}>
      <p className="text-sm leading-6 text-slate-600">
        Spreadsheet exports stop until a new key is saved. Spreadsheets already made stay where they are in Google Drive.
      </p>
      <div className="mt-6 flex justify-end gap-3">
        <Button ref={cancel} variant="secondary" onClick={() => onOpenChange(false)} disabled={pending}>
          Cancel
        </Button>
        <Button variant="danger" loading={pending} onClick={onConfirm}>
          Remove key
        </Button>
      </div>
    </Modal>
  );
}
