// Tracker Settings → "Import posts": upload an NDJSON or CSV file of posts into this tracker.
import { useId, useRef, useState, type FormEvent } from 'react';
import { useImportPosts } from '../../api/queries/import';
import type { ImportFormat, ImportResult } from '../../api/types';
import { Alert, FieldMessage } from '../../components/Alert';
import { Button } from '../../components/Button';
import { Spinner } from '../../components/Spinner';
import { TextField } from '../../components/TextField';
import { errorMessage } from '../../lib/errors';
import { PLATFORMS } from '../../lib/platforms';
import {
  formatBytes,
  formatFromName,
  IMPORT_ACCEPT,
  IMPORT_ERRORS_CAP,
  IMPORT_MAX_BYTES,
  importSummary,
  parseMapping,
} from './import-form';

const select =
  'mt-1 block h-9 w-full rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900 shadow-sm focus:outline-none focus:ring-2 focus:ring-brand-500 disabled:bg-slate-50 disabled:text-slate-500';
const label = 'block text-sm font-medium text-slate-700';

export function ImportPostsSection({ hash }: { hash: string }) {
  const ids = { file: useId(), format: useId(), platform: useId(), help: useId(), fileMsg: useId() };
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [format, setFormat] = useState<ImportFormat>('ndjson');
  const [platform, setPlatform] = useState('twt');
  const [mapping, setMapping] = useState('');
  const [fileError, setFileError] = useState<string | null>(null);
  const [mappingError, setMappingError] = useState<string | null>(null);
  const importPosts = useImportPosts(hash);
  const running = importPosts.isPending;

  const choose = (f: File | null) => {
    importPosts.reset();
    setFile(f);
    setFileError(f && f.size > IMPORT_MAX_BYTES ? `The file is ${formatBytes(f.size)}; the limit is 50 MB.` : null);
    const detected = f ? formatFromName(f.name) : null;
    if (detected) setFormat(detected);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (running) return;
    if (!file) {
      setFileError('Choose a file to import.');
      fileInput.current?.focus();
      return;
    }
    if (file.size > IMPORT_MAX_BYTES) {
      setFileError(`The file is ${formatBytes(file.size)}; the limit is 50 MB.`);
      return;
    }
    const map = format === 'csv' ? parseMapping(mapping) : { value: undefined, error: null };
    setMappingError(map.error);
    if (map.error) return;
    importPosts.mutate({ file, format, platform: format === 'csv' ? platform : undefined, map: map.value });
  };

  return (
    <section aria-labelledby="import-posts" className="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="import-posts" className="text-base font-semibold text-slate-900">
        Import posts
      </h2>
      <p id={ids.help} className="mt-1 max-w-2xl text-sm text-slate-600">
        Add posts from a file (up to 50 MB). Accepted: NDJSON with one Hark post JSON per line, X API v2
        search responses, or CSV with a header row. Only posts that match this tracker’s search are kept.
      </p>

      <form onSubmit={submit} noValidate aria-label="Import posts" className="mt-5 space-y-4">
        <div className="grid gap-4 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
          <div>
            <label htmlFor={ids.file} className={label}>
              File
            </label>
            <input
              ref={fileInput}
              id={ids.file}
              type="file"
              accept={IMPORT_ACCEPT}
              disabled={running}
              aria-describedby={[ids.help, fileError ? ids.fileMsg : ''].filter(Boolean).join(' ')}
              aria-invalid={fileError ? true : undefined}
              onChange={(e) => choose(e.target.files?.[0] ?? null)}
              className="mt-1 block w-full cursor-pointer rounded-md border border-slate-300 bg-white text-sm text-slate-700 shadow-sm file:mr-3 file:h-9 file:cursor-pointer file:border-0 file:border-r file:border-slate-300 file:bg-slate-50 file:px-3 file:text-sm file:font-medium file:text-slate-700 hover:file:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 disabled:cursor-not-allowed disabled:opacity-60"
            />
            {file && !fileError ? (
              <p className="mt-1 text-xs text-slate-500">
                {formatBytes(file.size)}
                {formatFromName(file.name) ? ` · detected ${format === 'csv' ? 'CSV' : 'NDJSON'}` : ' · choose the format'}
              </p>
            ) : null}
            <FieldMessage id={ids.fileMsg}>{fileError}</FieldMessage>
          </div>
          <div>
            <label htmlFor={ids.format} className={label}>
              Format
            </label>
            <select
              id={ids.format}
              value={format}
              disabled={running}
              onChange={(e) => {
                importPosts.reset();
                setFormat(e.target.value as ImportFormat);
              }}
              className={select}
            >
              <option value="ndjson">NDJSON / JSON</option>
              <option value="csv">CSV</option>
            </select>
          </div>
        </div>

        {format === 'csv' ? (
          <div className="grid gap-4 sm:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]">
            <div>
              <label htmlFor={ids.platform} className={label}>
                Platform of the rows
              </label>
              <select id={ids.platform} value={platform} disabled={running} onChange={(e) => setPlatform(e.target.value)} className={select}>
                {PLATFORMS.map((p) => (
                  <option key={p.code} value={p.code}>
                    {p.label}
                  </option>
                ))}
              </select>
            </div>
            <TextField
              label="Column mapping (optional)"
              placeholder="text=Body, created_at=Date"
              value={mapping}
              disabled={running}
              onChange={(e) => {
                setMapping(e.target.value);
                setMappingError(null);
              }}
              error={mappingError ?? undefined}
              hint="field=Column pairs, for columns not named like Hark’s fields."
            />
          </div>
        ) : null}

        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" loading={running}>
            {running ? 'Importing…' : 'Import'}
          </Button>
          {running && file ? (
            <span role="status" className="inline-flex items-center gap-2 text-sm text-slate-600">
              <Spinner className="h-4 w-4 text-brand-600" />
              Uploading and importing {file.name} ({formatBytes(file.size)})…
            </span>
          ) : null}
        </div>
      </form>

      {importPosts.isError ? (
        <Alert className="mt-4">
          <span className="font-medium">The import failed.</span> {errorMessage(importPosts.error)}
        </Alert>
      ) : null}
      {importPosts.isSuccess && importPosts.data ? <ImportResultView result={importPosts.data} /> : null}
    </section>
  );
}

function ImportResultView({ result }: { result: ImportResult }) {
  const errors = result.errors ?? [];
  const capped = errors.length >= IMPORT_ERRORS_CAP && result.invalid > errors.length;
  const clean = errors.length === 0 && result.invalid === 0;
  return (
    <div className="mt-5" data-testid="import-result">
      <Alert tone={result.imported > 0 || clean ? 'info' : 'warning'}>
        <p className="font-medium">{importSummary(result)}.</p>
        <p className="mt-0.5 text-xs text-slate-600">
          {result.lines.toLocaleString('en-US')} {result.lines === 1 ? 'line' : 'lines'} read.
        </p>
      </Alert>
      {errors.length > 0 ? (
        <div className="mt-4">
          <h3 className="text-sm font-semibold text-slate-900">Lines that could not be imported</h3>
          {capped ? <p className="mt-1 text-xs text-slate-500">Showing the first {errors.length} of {result.invalid.toLocaleString('en-US')}.</p> : null}
          <div className="mt-2 max-h-72 overflow-auto rounded-md border border-slate-200">
            <table className="w-full text-left text-sm">
              <thead className="sticky top-0 bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
                <tr>
                  <th scope="col" className="w-28 px-3 py-2 font-medium">
                    Line
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Reason
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {errors.map((err, i) => (
                  <tr key={`${err.line}-${i}`}>
                    <th scope="row" className="whitespace-nowrap px-3 py-2 font-medium tabular-nums text-slate-700">
                      Line {err.line}
                    </th>
                    {/* The reason may quote the file: it is rendered as text. */}
                    <td className="break-words px-3 py-2 text-slate-700">{err.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      ) : null}
    </div>
  );
}
