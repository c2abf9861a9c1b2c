// Advanced Settings of the media wall: how it shows (grid or slideshow, dark or light, with or
// without text), how often it refreshes, how many posts, in which order, and whose posts it
// leaves out. Saved on the tracker (PUT /media-wall/settings), so every screen showing the wall
// and its embed follow them.
import { useId, useState, type ReactNode } from 'react';
import { ApiError } from '../../api/client';
import type { MediaWallSettings } from '../../api/queries/media-wall';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { Modal } from '../../components/Modal';
import { TextField } from '../../components/TextField';
import { errorMessage } from '../../lib/errors';
import { EXCLUDE_USERS_MAX, POST_COUNT_MAX, REFRESH_MAX_S, REFRESH_MIN_S, settingsToForm, validateSettingsForm, type SettingsErrors, type SettingsForm } from './wall-data';

export const SETTINGS_TITLE = 'Advanced Settings';

export function SettingsDialog({
  open,
  onOpenChange,
  saved,
  onSave,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  saved: MediaWallSettings;
  onSave: (settings: MediaWallSettings) => Promise<unknown>;
}) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={SETTINGS_TITLE} description="How the media wall shows, for everyone who sees it." name="mediaWallSettings" wide>
      {/* Mounted afresh on each opening, so the form starts from the saved settings. */}
      {open ? <SettingsFormView saved={saved} onSave={onSave} onDone={() => onOpenChange(false)} /> : null}
    </Modal>
  );
}

function SettingsFormView({ saved, onSave, onDone }: { saved: MediaWallSettings; onSave: (s: MediaWallSettings) => Promise<unknown>; onDone: () => void }) {
  const id = useId();
  const [form, setForm] = useState<SettingsForm>(() => settingsToForm(saved));
  const [errors, setErrors] = useState<SettingsErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof SettingsForm>(k: K, v: SettingsForm[K]) => setForm((f) => ({ ...f, [k]: v }));

  async function submit() {
    const checked = validateSettingsForm(form);
    if (checked.errors) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    setServerError(null);
    setBusy(true);
    try {
      await onSave(checked.settings);
      onDone();
    } catch (e) {
      setServerError(e instanceof ApiError ? e.message : errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      noValidate
      className="space-y-5"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <div className="grid gap-5 sm:grid-cols-2">
        <Choice
          legend="Display mode"
          name={`${id}-mode`}
          value={form.displayMode}
          onChange={(v) => set('displayMode', v)}
          options={[
            { value: 'grid', label: 'Grid', hint: 'Every post at once' },
            { value: 'slideshow', label: 'Slideshow', hint: 'One post at a time' },
          ]}
        />
        <Choice
          legend="Theme"
          name={`${id}-theme`}
          value={form.theme}
          onChange={(v) => set('theme', v)}
          options={[
            { value: 'dark', label: 'Dark', swatch: 'bg-slate-900' },
            { value: 'light', label: 'Light', swatch: 'bg-white' },
          ]}
        />
      </div>

      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          label="Update frequency (seconds)"
          inputMode="numeric"
          value={form.updateFrequency}
          onChange={(e) => set('updateFrequency', e.target.value)}
          hint={`From ${REFRESH_MIN_S} to ${REFRESH_MAX_S}. The wall looks sooner while posts keep coming.`}
          error={errors.updateFrequency}
        />
        <TextField
          label="Number of posts"
          inputMode="numeric"
          value={form.postCount}
          onChange={(e) => set('postCount', e.target.value)}
          hint={`From 1 to ${POST_COUNT_MAX}.`}
          error={errors.postCount}
        />
      </div>

      <div className="grid gap-5 sm:grid-cols-2">
        <div>
          <label htmlFor={`${id}-sort`} className="block text-sm font-medium text-slate-700">
            Sort by
          </label>
          <select
            id={`${id}-sort`}
            value={form.sortBy}
            onChange={(e) => set('sortBy', e.target.value === 'engagement' ? 'engagement' : 'date')}
            className="mt-1 block h-9 w-full rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900 shadow-sm focus:outline-none focus:ring-2 focus:ring-brand-500"
          >
            <option value="date">Newest first</option>
            <option value="engagement">Most engagement</option>
          </select>
        </div>
        <fieldset className="space-y-2 pt-1">
          <legend className="sr-only">What the wall shows</legend>
          <Check label="Show post text" checked={form.displayText} onChange={(v) => set('displayText', v)} />
          <Check label="Exclude retweets" checked={form.excludeRetweets} onChange={(v) => set('excludeRetweets', v)} />
        </fieldset>
      </div>

      <div>
        <label htmlFor={`${id}-users`} className="block text-sm font-medium text-slate-700">
          Exclude users
        </label>
        <textarea
          id={`${id}-users`}
          rows={2}
          value={form.excludeUsers}
          onChange={(e) => set('excludeUsers', e.target.value)}
          placeholder="@username, @another"
          aria-invalid={errors.excludeUsers ? true : undefined}
          aria-describedby={`${id}-users-msg`}
          className={`mt-1 block w-full rounded-md border bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:outline-none focus:ring-2 focus:ring-brand-500 ${errors.excludeUsers ? 'border-red-400' : 'border-slate-300'}`}
        />
        <p id={`${id}-users-msg`} className={`mt-1 text-xs ${errors.excludeUsers ? 'text-sm text-red-600' : 'text-slate-500'}`}>
          {errors.excludeUsers ?? `Their posts never show on the wall. Separate names with commas or spaces; up to ${EXCLUDE_USERS_MAX}.`}
        </p>
      </div>

      {serverError ? <Alert>{serverError}</Alert> : null}
      <div className="flex justify-end gap-2 border-t border-slate-100 pt-4">
        <Button variant="secondary" onClick={onDone} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" loading={busy}>
          Save
        </Button>
      </div>
    </form>
  );
}

function Choice<T extends string>({
  legend,
  name,
  value,
  onChange,
  options,
}: {
  legend: string;
  name: string;
  value: T;
  onChange: (v: T) => void;
  options: { value: T; label: string; hint?: string; swatch?: string }[];
}) {
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-700">{legend}</legend>
      <div className="mt-1 grid grid-cols-2 gap-2">
        {options.map((o) => (
          <label
            key={o.value}
            className={`flex cursor-pointer items-center gap-2 rounded-md border px-3 py-2 text-sm focus-within:outline-2 focus-within:outline-offset-1 focus-within:outline-brand-600 ${
              value === o.value ? 'border-brand-500 bg-brand-50 text-brand-700' : 'border-slate-300 text-slate-700 hover:border-slate-400'
            }`}
          >
            <input type="radio" className="sr-only" name={name} value={o.value} checked={value === o.value} onChange={() => onChange(o.value)} />
            {o.swatch ? <span aria-hidden="true" className={`h-4 w-4 rounded-full ring-1 ring-slate-300 ${o.swatch}`} /> : null}
            <span className="min-w-0">
              <span className="block font-medium">{o.label}</span>
              {o.hint ? <span className="block text-xs text-slate-500">{o.hint}</span> : null}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function Check({ label, checked, onChange }: { label: ReactNode; checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <label className="flex cursor-pointer items-center gap-2 text-sm text-slate-700">
      <input type="checkbox" className="h-4 w-4 accent-brand-600" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  );
}
