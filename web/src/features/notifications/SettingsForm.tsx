// The notification settings as one form: the Alerts, Periodic report and Destinations panels,
// checked before saving, saved whole with one Save (or put back with Cancel). The server's
// refusal is shown under the field it is about and beside Save.
import { useEffect, useState, type FormEvent } from 'react';
import { useSaveNotificationSettings, type NotificationsView } from '../../api/queries/notifications';
import { Button } from '../../components/Button';
import { errorMessage } from '../../lib/errors';
import { AlertsPanel } from './AlertsPanel';
import { DestinationsPanel } from './DestinationsPanel';
import { fieldId, type FormBinding } from './fields';
import {
  FIELD_ORDER,
  fieldOfServerError,
  formChanged,
  formFromSettings,
  settingsFromForm,
  type FieldKey,
  type FormErrors,
  type NotificationForm,
} from './notification-form';
import { ReportPanel } from './ReportPanel';

export const SAVED_TEXT = 'Your notification settings were saved.';
export const FIX_FIELDS_TEXT = 'Not saved: correct the fields marked in red.';
const SAVED_MS = 5000;

function focusField(key: FieldKey) {
  document.getElementById(fieldId(key))?.focus();
}

export function SettingsForm({ view, hash, now }: { view: NotificationsView; hash: string; now: number }) {
  // The settings as last read or saved: what the form is compared with, and what Cancel puts back.
  const [saved, setSaved] = useState<NotificationForm>(() => formFromSettings(view.settings));
  const [form, setForm] = useState<NotificationForm>(saved);
  const [errors, setErrors] = useState<FormErrors>({});
  const [serverError, setServerError] = useState<{ field: FieldKey | null; message: string } | null>(null);
  const [done, setDone] = useState(false);
  const save = useSaveNotificationSettings(hash);
  const dirty = formChanged(form, saved);

  // Settings read again with other values (saved in another tab) replace the form's, unless it
  // holds changes. Runs only when the server's settings change, with this render's form.
  useEffect(() => {
    const next = formFromSettings(view.settings);
    if (!formChanged(next, saved)) return;
    if (!formChanged(form, saved)) setForm(next);
    setSaved(next);
  }, [view.settings]); // eslint-disable-line react-hooks/exhaustive-deps

  // The confirmation goes after a few seconds.
  useEffect(() => {
    if (!done) return;
    const t = setTimeout(() => setDone(false), SAVED_MS);
    return () => clearTimeout(t);
  }, [done]);

  // Leaving the page with changes not saved asks first.
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const touched = (key: string) => {
    setDone(false);
    setServerError(null);
    // Not while a save is under way: resetting would let go of it (Save enabled again mid-flight,
    // and its answer never applied).
    if (!save.isPending) save.reset();
    setErrors((e) => {
      if (!(key in e)) return e;
      const next = { ...e };
      delete next[key as FieldKey];
      return next;
    });
  };

  const binding: FormBinding = {
    form,
    errors: serverError?.field ? { ...errors, [serverError.field]: serverError.message } : errors,
    set: (key, value) => {
      touched(key);
      setForm((f) => ({ ...f, [key]: value }));
    },
    setThreshold: (key, value) => {
      touched(key);
      setForm((f) => ({ ...f, thresholds: { ...f.thresholds, [key]: value } }));
    },
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!dirty || save.isPending) return;
    setDone(false);
    setServerError(null);
    const checked = settingsFromForm(form);
    if (checked.errors) {
      setErrors(checked.errors);
      const first = FIELD_ORDER.find((k) => checked.errors[k]);
      if (first) focusField(first);
      return;
    }
    setErrors({});
    const sent = form;
    save.mutate(checked.settings, {
      onSuccess: (next) => {
        // The server's answer is what is saved now. The form takes it only if it still holds what
        // was sent: changes typed while the request was under way are kept, and show as not saved.
        const fresh = formFromSettings(next.settings);
        setSaved(fresh);
        setForm((current) => (formChanged(current, sent) ? current : fresh));
        setDone(true);
      },
      onError: (err) => {
        const field = fieldOfServerError(err, sent);
        setServerError({ field, message: errorMessage(err) });
        if (field) focusField(field);
      },
    });
  };

  const cancel = () => {
    setForm(saved);
    setErrors({});
    setServerError(null);
    setDone(false);
    save.reset();
  };

  const scheduleChanged = form.reportEnabled !== saved.reportEnabled || form.reportFrequency !== saved.reportFrequency;
  const hasErrors = Object.keys(errors).length > 0;

  return (
    <form onSubmit={submit} noValidate aria-label="Notification settings" className="grid grid-cols-12 gap-4">
      <AlertsPanel {...binding} className="col-span-12 xl:col-span-7" />
      <div className="col-span-12 flex flex-col gap-4 xl:col-span-5">
        <ReportPanel {...binding} nextReportAt={view.nextReportAt} timeZone={view.timeZone} scheduleChanged={scheduleChanged} now={now} />
        <DestinationsPanel {...binding} view={view} saved={saved} hash={hash} dirty={dirty} />
      </div>

      <div
        className="sticky bottom-0 z-10 col-span-12 flex flex-wrap items-center gap-3 rounded-xl border border-slate-200 bg-white/95 px-4 py-3 shadow-[0_-4px_12px_-6px_rgba(15,23,42,0.15)] backdrop-blur"
        data-testid="save-bar"
      >
        <div className="min-w-0 flex-1 text-sm" aria-live="polite">
          {serverError ? (
            <p role="alert" className="text-red-700">
              Not saved: {serverError.message}
            </p>
          ) : hasErrors ? (
            <p role="alert" className="text-red-700">
              {FIX_FIELDS_TEXT}
            </p>
          ) : dirty ? (
            // Before the confirmation: changes typed while a save was under way are not saved.
            <p className="text-slate-600">You have changes that are not saved.</p>
          ) : done ? (
            <p role="status" className="font-medium text-emerald-700">
              {SAVED_TEXT}
            </p>
          ) : (
            <p className="text-slate-500">All changes saved.</p>
          )}
        </div>
        <Button variant="secondary" onClick={cancel} disabled={!dirty || save.isPending}>
          Cancel
        </Button>
        <Button type="submit" loading={save.isPending} disabled={!dirty}>
          Save
        </Button>
      </div>
    </form>
  );
}
