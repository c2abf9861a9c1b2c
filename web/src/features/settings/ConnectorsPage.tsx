// /settings/connectors: the instance administrator enters each platform's credentials, switches
// connectors on and checks that they work. Saved secrets are never shown again.
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import {
  useCheckConnector,
  useConnectors,
  useSaveConnector,
  type Connector,
  type ConnectorStatus,
} from '../../api/queries/collection';
import { useMe } from '../../api/queries/me';
import { Alert, FieldMessage } from '../../components/Alert';
import { AppHeader } from '../../components/AppHeader';
import { Button } from '../../components/Button';
import { LoadingState } from '../../components/Spinner';
import { TextField } from '../../components/TextField';
import { errorMessage } from '../../lib/errors';
import { platformInfo } from '../../lib/platforms';
import type { PlatformCode } from '../../api/types';
import { RequireSignIn } from '../auth';
import { baseUrlError, formFromConnector, missingRequired, needsText, STATUS_LABELS, toInput, type ConnectorFormValues } from './connector-form';

export function ConnectorsPage() {
  return (
    <RequireSignIn>
      <Connectors />
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

function Connectors() {
  const me = useMe();
  const isAdmin = me.data?.isAdmin === true;
  const list = useConnectors(isAdmin);
  if (me.isPending) return <Page><LoadingState label="Loading…" /></Page>;
  if (!isAdmin) {
    return (
      <Page>
        <h1 className="text-2xl font-semibold text-slate-900">Connectors</h1>
        <Alert className="mt-6">Only an instance administrator can manage connectors.</Alert>
        <Link to="/mytracks/hashtag" className="mt-4 inline-block text-sm font-medium text-brand-700 hover:underline">
          Back to the tracker list
        </Link>
      </Page>
    );
  }
  return (
    <Page>
      <h1 className="text-2xl font-semibold text-slate-900">Connectors</h1>
      <p className="mt-1 max-w-2xl text-sm text-slate-600">
        Hark collects posts for running trackers from the sources switched on here: polled sources every few minutes,
        streams as posts are made. Enter the credentials of the platforms you have access to, then check that each one
        works.
      </p>
      {list.isPending && <div className="mt-6"><LoadingState label="Loading connectors…" /></div>}
      {list.isError && <Alert className="mt-6">{errorMessage(list.error)}</Alert>}
      <div className="mt-6 space-y-6">
        {list.data?.map((c) => <ConnectorCard key={c.name} connector={c} />)}
      </div>
    </Page>
  );
}

const STATUS_STYLE: Record<ConnectorStatus, string> = {
  working: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  error: 'bg-red-50 text-red-800 ring-red-200',
  not_configured: 'bg-slate-100 text-slate-700 ring-slate-200',
  unchecked: 'bg-amber-50 text-amber-900 ring-amber-200',
};

function StatusPill({ status }: { status: ConnectorStatus }) {
  return (
    <span className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset ${STATUS_STYLE[status]}`}>
      {STATUS_LABELS[status]}
    </span>
  );
}

function ConnectorCard({ connector: c }: { connector: Connector }) {
  const ids = { title: useId(), enabled: useId() };
  const [values, setValues] = useState<ConnectorFormValues>(() => formFromConnector(c));
  const [attempted, setAttempted] = useState(false);
  const save = useSaveConnector(c.name);
  const check = useCheckConnector(c.name);
  const missing = attempted ? missingRequired(c, values) : {};
  const urlError = attempted ? baseUrlError(values, c.baseUrlSchemes) : null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setAttempted(true);
    if (Object.keys(missingRequired(c, values)).length > 0 || baseUrlError(values, c.baseUrlSchemes)) return;
    check.reset();
    save.mutate(toInput(c, values), {
      onSuccess: (saved) => {
        setAttempted(false);
        setValues(formFromConnector(saved));
      },
    });
  };

  const setValue = (name: string, v: string) => setValues((s) => ({ ...s, values: { ...s.values, [name]: v } }));

  return (
    <section aria-labelledby={ids.title} className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={ids.title} className="text-base font-semibold text-slate-900">{c.label}</h2>
          <p className="mt-1 text-sm text-slate-600">{c.description}</p>
          <p className="mt-2 flex flex-wrap items-center gap-1 text-xs text-slate-500">
            Posts count as
            {c.platforms.map((p) => {
              const info = platformInfo(p as PlatformCode);
              return (
                <span key={p} className="inline-flex items-center gap-1 rounded bg-slate-100 px-1.5 py-0.5 font-medium text-slate-700">
                  {info && (
                    <span aria-hidden="true" className={`inline-flex h-4 min-w-4 items-center justify-center rounded px-0.5 text-[9px] font-bold leading-none ${info.badge}`}>
                      {info.short}
                    </span>
                  )}
                  {info?.label ?? p}
                </span>
              );
            })}
          </p>
          <p className="mt-1 text-xs text-slate-600">{needsText(c)}</p>
        </div>
        <StatusPill status={c.status} />
      </div>
      {c.statusMessage && (
        <p className={`mt-3 text-sm ${c.status === 'working' ? 'text-emerald-800' : c.status === 'error' ? 'text-red-700' : 'text-slate-600'}`}>
          {c.statusMessage}
          {c.checkedAt ? <span className="text-slate-500"> · checked {new Date(c.checkedAt).toLocaleString()}</span> : null}
        </p>
      )}
      {c.stream && (
        <p className="mt-2 text-sm text-slate-600" role="status">
          {c.stream.running ? 'Stream connected' : 'Stream not connected'}
          {` · ${c.stream.postsFetched.toLocaleString()} posts read`}
          {c.stream.lastCollectedAt ? ` · last read ${new Date(c.stream.lastCollectedAt).toLocaleString()}` : ''}
          {c.stream.lastError ? <span className="block text-red-700">Last error: {c.stream.lastError}</span> : null}
        </p>
      )}

      <form onSubmit={submit} noValidate className="mt-5 space-y-4" aria-label={`${c.label} settings`}>
        <label htmlFor={ids.enabled} className="flex items-center gap-2 text-sm font-medium text-slate-700">
          <input
            id={ids.enabled}
            type="checkbox"
            checked={values.enabled}
            onChange={(e) => setValues((s) => ({ ...s, enabled: e.target.checked }))}
            className="h-4 w-4 rounded border-slate-300 text-brand-600 focus:ring-brand-500"
          />
          Collect from this source
        </label>
        {c.hasBaseUrl && (
          <TextField
            label="Base URL"
            value={values.baseUrl}
            placeholder={c.defaultBaseUrl}
            hint={`Leave blank for ${c.defaultBaseUrl}.`}
            error={urlError ?? undefined}
            onChange={(e) => setValues((s) => ({ ...s, baseUrl: e.target.value }))}
          />
        )}
        {c.fields.map((f) => (
          <FieldInput
            key={f.name}
            field={f}
            value={values.values[f.name] ?? ''}
            cleared={values.clear.includes(f.name)}
            error={missing[f.name]}
            onChange={(v) => setValue(f.name, v)}
            onClear={(on) => setValues((s) => ({ ...s, clear: on ? [...s.clear, f.name] : s.clear.filter((n) => n !== f.name) }))}
          />
        ))}
        {c.fields.length === 0 && <p className="text-sm text-slate-500">No credentials needed.</p>}
        {save.isError && <Alert>{errorMessage(save.error)}</Alert>}
        {check.isError && <Alert>{errorMessage(check.error)}</Alert>}
        <div className="flex flex-wrap items-center gap-3 border-t border-slate-100 pt-4">
          <Button type="submit" loading={save.isPending}>Save</Button>
          <Button variant="secondary" loading={check.isPending} onClick={() => { save.reset(); check.mutate(); }}>
            Check connection
          </Button>
          {save.isSuccess && !save.isPending && <span role="status" className="text-sm text-emerald-700">Saved.</span>}
        </div>
      </form>
    </section>
  );
}

function FieldInput({
  field: f,
  value,
  cleared,
  error,
  onChange,
  onClear,
}: {
  field: Connector['fields'][number];
  value: string;
  cleared: boolean;
  error?: string;
  onChange: (v: string) => void;
  onClear: (on: boolean) => void;
}) {
  const id = useId();
  const label = `${f.label}${f.required ? '' : ' (optional)'}`;
  if (f.options && f.options.length > 0) {
    return (
      <fieldset>
        <legend className="block text-sm font-medium text-slate-700">{f.label}</legend>
        <div className="mt-1 flex flex-wrap gap-4">
          {f.options.map((o, i) => (
            <label key={o.value} className="flex items-center gap-2 text-sm text-slate-700">
              <input
                type="radio"
                name={id}
                value={o.value}
                checked={value === o.value || (value === '' && i === 0)}
                onChange={() => onChange(o.value)}
                className="h-4 w-4 border-slate-300 accent-brand-600"
              />
              {o.label}
            </label>
          ))}
        </div>
        {f.help && <p className="mt-1 text-xs text-slate-500">{f.help}</p>}
      </fieldset>
    );
  }
  if (f.multiline) {
    return (
      <div>
        <label htmlFor={id} className="block text-sm font-medium text-slate-700">{label}</label>
        <textarea
          id={id}
          rows={4}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-help`}
          className={`mt-1 block w-full rounded-md border bg-white px-3 py-2 font-mono text-xs text-slate-900 shadow-sm focus:outline-none focus:ring-2 focus:ring-brand-500 ${error ? 'border-red-400' : 'border-slate-300'}`}
        />
        {f.help && <p id={`${id}-help`} className="mt-1 text-xs text-slate-500">{f.help}</p>}
        <FieldMessage>{error}</FieldMessage>
      </div>
    );
  }
  const keptSecret = f.secret && f.isSet && !cleared;
  return (
    <div>
      <TextField
        id={id}
        label={label}
        type={f.secret ? 'password' : 'text'}
        autoComplete={f.secret ? 'new-password' : 'off'}
        value={value}
        placeholder={keptSecret ? 'Saved — leave blank to keep it' : ''}
        hint={f.help || undefined}
        error={error}
        onChange={(e) => onChange(e.target.value)}
      />
      {f.secret && f.isSet && (
        <label className="mt-1 flex items-center gap-2 text-xs text-slate-600">
          <input type="checkbox" checked={cleared} onChange={(e) => onClear(e.target.checked)} className="h-3.5 w-3.5 rounded border-slate-300" />
          Erase the saved {f.label.toLowerCase()}
        </label>
      )}
    </div>
  );
}
