import { useId, useState } from 'react';
import { Alert } from '../../components/Alert';
import { TextField } from '../../components/TextField';
import { PlatformPicker } from './PlatformPicker';
import { SearchBuilder } from './SearchBuilder';
import { defaultTitle, showInstagramWarning, type BuilderLimits, type TrialAccess } from './search-builder';
import { LANGUAGES, LIST_PLATFORMS, validateForm, type FormErrors, type ListPlatform, type TrackerFormValues } from './tracker-form';

export interface TrackerFormProps {
  values: TrackerFormValues;
  onChange: (v: TrackerFormValues) => void;
  limits: BuilderLimits;
  access: TrialAccess;
  readOnly?: boolean;
  /** Save attempts so far; errors show only once this is above 0. */
  attempts: number;
  /** Field errors from the server (422), keyed by field name. */
  serverErrors?: Record<string, string>;
}

export const INSTAGRAM_WARNING =
  'Instagram can only be searched by hashtag. Terms with # are searched as hashtags; terms with @ or several words are matched within the posts found by hashtag search, so Instagram may return few or no posts for them.';

const PLACED = new Set(['search', 'platforms', 'title', 'volumeLimit', 'language', 'countryLocations', 'subtrackers']);

/** The tracker search form shared by the new and edit pages. */
export function TrackerForm({ values, onChange, limits, access, readOnly = false, attempts, serverErrors = {} }: TrackerFormProps) {
  const [advanced, setAdvanced] = useState(false);
  const advancedId = useId();
  const local: FormErrors = attempts > 0 ? validateForm(values) : {};
  const set = <K extends keyof TrackerFormValues>(k: K, v: TrackerFormValues[K]) => onChange({ ...values, [k]: v });
  const setList = (which: 'usernames' | 'ignore', code: ListPlatform, text: string) =>
    onChange({ ...values, [which]: { ...values[which], [code]: text } });
  const otherServerErrors = Object.entries(serverErrors).filter(([f]) => !PLACED.has(f) && !f.startsWith('search') && !f.startsWith('platforms'));
  const serverFor = (prefix: string) =>
    Object.entries(serverErrors).find(([f]) => f === prefix || f.startsWith(prefix + '.') || f.startsWith(prefix + '['))?.[1];

  return (
    <div className="space-y-6">
      {otherServerErrors.length > 0 && (
        <Alert>
          <ul className="list-disc pl-4">
            {otherServerErrors.map(([f, m]) => (
              <li key={f}>{m}</li>
            ))}
          </ul>
        </Alert>
      )}

      <SearchBuilder
        rows={values.rows}
        onChange={(rows) => set('rows', rows)}
        limits={limits}
        readOnly={readOnly}
        error={local.search ?? serverFor('search')}
      />

      <PlatformPicker
        platforms={values.platforms}
        onChange={(p) => set('platforms', p)}
        access={access}
        readOnly={readOnly}
        error={local.platforms ?? serverFor('platforms')}
        excludeRetweets={values.excludeRetweets}
        onExcludeRetweets={(v) => set('excludeRetweets', v)}
      />

      {showInstagramWarning(values.rows, values.platforms) && (
        <Alert tone="warning">
          <span className="font-medium">Instagram search: </span>
          {INSTAGRAM_WARNING}
        </Alert>
      )}

      <TextField
        label="Title"
        value={values.title}
        readOnly={readOnly}
        onChange={(e) => set('title', e.target.value)}
        placeholder={defaultTitle(values.rows) || 'Real-time Tracker: …'}
        hint="Leave blank to use the first search term."
        error={serverErrors.title}
        maxLength={200}
      />

      <div className="rounded-md border border-slate-200">
        <button
          type="button"
          aria-expanded={advanced}
          aria-controls={advancedId}
          onClick={() => setAdvanced(!advanced)}
          className="flex w-full items-center justify-between rounded-md px-4 py-3 text-left text-sm font-semibold text-slate-900 hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
        >
          Advanced filters
          <span aria-hidden="true" className={`text-slate-400 transition-transform ${advanced ? 'rotate-90' : ''}`}>
            ›
          </span>
        </button>
        {(advanced || local.volumeLimit) && (
          <div id={advancedId} className="space-y-5 border-t border-slate-200 px-4 py-4">
            <div className="grid gap-4 sm:grid-cols-3">
              <div>
                <label htmlFor={`${advancedId}-lang`} className="block text-sm font-medium text-slate-700">
                  Language
                </label>
                <select
                  id={`${advancedId}-lang`}
                  value={values.language}
                  disabled={readOnly}
                  onChange={(e) => set('language', e.target.value)}
                  className="mt-1 h-9 w-full rounded-md border border-slate-300 bg-white px-2 text-sm focus:outline-none focus:ring-2 focus:ring-brand-500"
                >
                  {LANGUAGES.map((l) => (
                    <option key={l.code} value={l.code}>
                      {l.label}
                    </option>
                  ))}
                </select>
                {serverErrors.language && <p className="mt-1 text-sm text-red-600">{serverErrors.language}</p>}
              </div>
              <TextField
                label="Country locations"
                value={values.countryLocations}
                readOnly={readOnly}
                onChange={(e) => set('countryLocations', e.target.value)}
                placeholder="US, GB, FR"
                hint="Two-letter country codes, comma separated."
                error={serverErrors.countryLocations}
              />
              <TextField
                label="Volume limit"
                inputMode="numeric"
                value={values.volumeLimit}
                readOnly={readOnly}
                onChange={(e) => set('volumeLimit', e.target.value)}
                placeholder="No limit"
                hint="Stop collecting after this many posts."
                error={local.volumeLimit ?? serverErrors.volumeLimit}
              />
            </div>
            {values.platforms.twt === 1 || values.platforms.tt === 1 ? (
              <div className="flex flex-wrap gap-6 text-sm text-slate-700">
                {values.platforms.twt === 1 && (
                  <label className="inline-flex items-center gap-2">
                    <input type="checkbox" checked={values.verifiedUsers} disabled={readOnly} onChange={(e) => set('verifiedUsers', e.target.checked)} className="h-4 w-4 accent-brand-600" />
                    Only verified Twitter users
                  </label>
                )}
                {values.platforms.tt === 1 && (
                  <label className="inline-flex items-center gap-2">
                    <input type="checkbox" checked={values.verifiedTiktokUsers} disabled={readOnly} onChange={(e) => set('verifiedTiktokUsers', e.target.checked)} className="h-4 w-4 accent-brand-600" />
                    Only verified TikTok users
                  </label>
                )}
              </div>
            ) : null}
            <div>
              <label htmlFor={`${advancedId}-sub`} className="block text-sm font-medium text-slate-700">
                Subtracker terms
              </label>
              <textarea
                id={`${advancedId}-sub`}
                rows={2}
                value={values.subtrackers}
                readOnly={readOnly}
                onChange={(e) => set('subtrackers', e.target.value)}
                placeholder="One per line or comma separated"
                className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm focus:outline-none focus:ring-2 focus:ring-brand-500"
              />
              <p className="mt-1 text-xs text-slate-500">Each term becomes a subtracker that narrows the collected posts.</p>
              {serverErrors.subtrackers && <p className="mt-1 text-sm text-red-600">{serverErrors.subtrackers}</p>}
            </div>
            <div className="grid gap-4 md:grid-cols-2">
              <ListGroup
                title="Accounts to follow"
                hint="Posts from these usernames are collected, comma separated."
                which="usernames"
                values={values.usernames}
                readOnly={readOnly}
                onChange={setList}
              />
              <ListGroup
                title="Accounts to ignore"
                hint="Posts from these usernames are never collected."
                which="ignore"
                values={values.ignore}
                readOnly={readOnly}
                onChange={setList}
              />
            </div>
          </div>
        )}
      </div>
    </div>
  );
}

function ListGroup(props: {
  title: string;
  hint: string;
  which: 'usernames' | 'ignore';
  values: Record<ListPlatform, string>;
  readOnly: boolean;
  onChange: (which: 'usernames' | 'ignore', code: ListPlatform, text: string) => void;
}) {
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium text-slate-700">{props.title}</legend>
      <p className="text-xs text-slate-500">{props.hint}</p>
      {LIST_PLATFORMS.map((p) => (
        <TextField
          key={p.code}
          label={`${props.title}: ${p.label}`}
          className="[&_label]:sr-only"
          value={props.values[p.code]}
          readOnly={props.readOnly}
          placeholder={p.label}
          onChange={(e) => props.onChange(props.which, p.code, e.target.value)}
        />
      ))}
    </fieldset>
  );
}
