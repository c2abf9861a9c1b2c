// The Accounts page's edit dialog: an account's plan (with what it includes), trial, limits and
// administrator rights. Saving sends only what changed; a refusal shows inside the dialog.
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useEditAccount, type Account, type PlanCatalogue } from '../../api/queries/admin';
import { Alert, FieldMessage } from '../../components/Alert';
import { Button } from '../../components/Button';
import { FeatureMark } from '../../components/FeatureMark';
import { Modal } from '../../components/Modal';
import { errorMessage } from '../../lib/errors';
import {
  changeFromForm,
  formFromAccount,
  planIncludes,
  shortDate,
  trialActive,
  validateForm,
  withPlan,
  type AccountForm,
  type FormErrors,
} from './accounts-data';

export const SELF_ADMIN_NOTE = 'You cannot take away your own administrator rights; another administrator can.';

export function AccountEditor({
  account,
  catalogue,
  selfId,
  onClose,
  onSaved,
}: {
  /** The account being edited; null keeps the dialog closed. */
  account: Account | null;
  catalogue: PlanCatalogue;
  selfId: number | null;
  onClose: () => void;
  onSaved: (account: Account) => void;
}) {
  return (
    <Modal
      open={account !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="Edit account"
      description={account ? `${account.name || account.email} · ${account.email}` : undefined}
      name="editAccount"
      wide
    >
      {account ? <EditorForm key={account.id} account={account} catalogue={catalogue} selfId={selfId} onClose={onClose} onSaved={onSaved} /> : null}
    </Modal>
  );
}

const inputClass = (error?: string) =>
  `mt-1 block h-9 w-full rounded-md border bg-white px-3 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:outline-none focus:ring-2 focus:ring-brand-500 disabled:bg-slate-50 disabled:text-slate-400 ${error ? 'border-red-400' : 'border-slate-300'}`;

function EditorForm({
  account: a,
  catalogue,
  selfId,
  onClose,
  onSaved,
}: {
  account: Account;
  catalogue: PlanCatalogue;
  selfId: number | null;
  onClose: () => void;
  onSaved: (account: Account) => void;
}) {
  const ids = { plan: useId(), trial: useId(), days: useId(), searches: useId(), ignored: useId(), admin: useId() };
  const [form, setForm] = useState<AccountForm>(() => formFromAccount(a, catalogue.trialDays));
  const [errors, setErrors] = useState<FormErrors>({});
  const edit = useEditAccount(selfId);
  const self = a.id === selfId;
  const chosen = catalogue.plans.find((p) => p.number === form.plan) ?? null;
  const set = (change: Partial<AccountForm>) => {
    setForm((f) => ({ ...f, ...change }));
    edit.reset();
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = validateForm(form, a);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const change = changeFromForm(a, form);
    if (Object.keys(change).length === 0) {
      onClose();
      return;
    }
    edit.mutate({ id: a.id, change }, { onSuccess: (saved) => onSaved(saved) });
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-5" aria-label={`Edit ${a.email}`}>
      <div>
        <label htmlFor={ids.plan} className="block text-sm font-medium text-slate-700">
          Plan
        </label>
        <select
          id={ids.plan}
          value={form.plan}
          onChange={(e) => {
            const p = catalogue.plans.find((x) => x.number === Number(e.target.value));
            if (p) set(withPlan(form, p));
          }}
          className="mt-1 block h-9 w-full rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-800 shadow-sm focus:outline-none focus:ring-2 focus:ring-brand-500"
        >
          {chosen === null && <option value={form.plan}>Plan {form.plan} (not in the catalogue)</option>}
          {catalogue.plans.map((p) => (
            <option key={p.number} value={p.number}>
              {p.name} · {p.number}
            </option>
          ))}
        </select>
        {chosen ? (
          <div className="mt-2 rounded-md bg-slate-50 px-3 py-2" data-testid="plan-includes">
            <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
              {planIncludes(chosen).map((f) => (
                <li key={f.label} className={`inline-flex items-center gap-1.5 ${f.included ? 'text-slate-800' : 'text-slate-400'}`}>
                  <FeatureMark included={f.included} />
                  {f.label}
                  <span className="sr-only">{f.included ? '(included)' : '(not included)'}</span>
                </li>
              ))}
            </ul>
            <p className="mt-1 text-xs text-slate-500">
              Choosing it sets {chosen.maxSearches} searches and {chosen.maxIgnored} ignored terms. A trial also opens the media wall.
            </p>
          </div>
        ) : (
          <p className="mt-1 text-xs text-slate-500">This account's plan is not one of the catalogue's; choose one to give it that plan's features.</p>
        )}
      </div>

      <fieldset className="border-t border-slate-100 pt-4">
        <legend className="float-left w-full text-sm font-semibold text-slate-900">Trial</legend>
        <div className="clear-left flex flex-wrap items-start gap-x-6 gap-y-3 pt-2">
          <label htmlFor={ids.trial} className="mt-7 flex items-center gap-2 text-sm text-slate-700">
            <input
              id={ids.trial}
              type="checkbox"
              checked={form.trial}
              onChange={(e) =>
                set({ trial: e.target.checked, trialDays: e.target.checked && !a.trial && form.trialDays === '' ? String(catalogue.trialDays) : form.trialDays })
              }
              className="h-4 w-4 rounded border-slate-300 accent-brand-600"
            />
            On a trial
          </label>
          <div className="min-w-0 flex-1 basis-56">
            <label htmlFor={ids.days} className={`block text-sm font-medium ${form.trial ? 'text-slate-700' : 'text-slate-400'}`}>
              Days from today
            </label>
            <input
              id={ids.days}
              inputMode="numeric"
              value={form.trialDays}
              disabled={!form.trial}
              placeholder={a.trial ? 'Keep the end date' : String(catalogue.trialDays)}
              aria-invalid={errors.trialDays ? true : undefined}
              aria-describedby={`${ids.days}-hint`}
              onChange={(e) => set({ trialDays: e.target.value })}
              className={`${inputClass(errors.trialDays)} max-w-40`}
            />
            {errors.trialDays ? (
              <FieldMessage id={`${ids.days}-hint`}>{errors.trialDays}</FieldMessage>
            ) : (
              <p id={`${ids.days}-hint`} className="mt-1 text-xs text-slate-500">
                {trialHint(a, form)}
              </p>
            )}
          </div>
        </div>
      </fieldset>

      <fieldset className="border-t border-slate-100 pt-4">
        <legend className="float-left w-full text-sm font-semibold text-slate-900">Limits per tracker</legend>
        <div className="clear-left grid grid-cols-1 gap-4 pt-2 sm:grid-cols-2">
          <NumberField id={ids.searches} label="Max searches" hint="1 to 1000" value={form.maxSearches} error={errors.maxSearches} onChange={(v) => set({ maxSearches: v })} />
          <NumberField id={ids.ignored} label="Max ignored terms" hint="0 to 1000" value={form.maxIgnored} error={errors.maxIgnored} onChange={(v) => set({ maxIgnored: v })} />
        </div>
      </fieldset>

      <div className="border-t border-slate-100 pt-4">
        <label htmlFor={ids.admin} className={`flex items-center gap-2 text-sm font-medium ${self ? 'text-slate-500' : 'text-slate-800'}`}>
          <input
            id={ids.admin}
            type="checkbox"
            checked={form.isAdmin}
            disabled={self}
            aria-describedby={`${ids.admin}-hint`}
            onChange={(e) => set({ isAdmin: e.target.checked })}
            className="h-4 w-4 rounded border-slate-300 accent-brand-600 disabled:cursor-not-allowed"
          />
          Instance administrator
        </label>
        <p id={`${ids.admin}-hint`} className="ml-6 mt-1 text-xs text-slate-500">
          {self ? SELF_ADMIN_NOTE : 'Manages accounts, connectors and integrations, and has every feature.'}
        </p>
      </div>

      {edit.isError ? <Alert>{errorMessage(edit.error)}</Alert> : null}

      <div className="flex justify-end gap-3 border-t border-slate-100 pt-4">
        <Button variant="secondary" onClick={onClose} disabled={edit.isPending}>
          Cancel
        </Button>
        <Button type="submit" loading={edit.isPending}>
          Save changes
        </Button>
      </div>
    </form>
  );
}

function trialHint(a: Account, form: AccountForm): ReactNode {
  if (!form.trial) return a.trial ? 'Saving ends the trial.' : 'Not on a trial.';
  if (!a.trial) return 'The trial ends this many days from today.';
  const end = a.trialExpires !== null ? shortDate(a.trialExpires) : null;
  if (trialActive(a)) return end ? `Leave blank to keep the end date (${end}), or enter days to start again from today.` : 'Leave blank to keep the trial as it is.';
  return end ? `The trial ended on ${end}. Enter days to start a new one.` : 'The trial has ended. Enter days to start a new one.';
}

function NumberField({
  id,
  label,
  hint,
  value,
  error,
  onChange,
}: {
  id: string;
  label: string;
  hint: string;
  value: string;
  error?: string;
  onChange: (v: string) => void;
}) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        inputMode="numeric"
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint`}
        onChange={(e) => onChange(e.target.value)}
        className={inputClass(error)}
      />
      {error ? (
        <FieldMessage id={`${id}-hint`}>{error}</FieldMessage>
      ) : (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      )}
    </div>
  );
}
