// The Alerts panel: how often alerts go out and to whom, and which events alert: negative
// sentiment, an activity spike (with its sensitivity and floor) and influencers per platform.
import { Panel } from '../../components/Panel';
import { Switch } from '../../components/Switch';
import { CheckField, NumberField, RecipientsField, Segmented, SelectField, type FormBinding } from './fields';
import { FREQUENCIES, INFLUENCER_PLATFORMS, MAX_RECIPIENTS, SENSITIVITIES } from './notification-form';

export const SPIKE_HELP = 'Alerts when the last 2 hours have far more posts than the same hours of the past 4 weeks; one alert per burst.';
export const NEGATIVE_HELP = 'Alerts when negative posts make up a far larger share of the latest posts than this tracker’s usual share (past 7 days).';
export const INFLUENCER_HELP = 'Alerts on a new post by an account past any threshold set for its platform. 0 or empty: off.';

export function AlertsPanel({ form, errors, set, setThreshold, className = '' }: FormBinding & { className?: string }) {
  const frequency = FREQUENCIES.find((f) => f.value === form.frequency);
  return (
    <Panel title="Alerts" id="alerts" className={className}>
      <div className="space-y-5 py-3">
        <Segmented
          legend="Notification frequency"
          name="alert-frequency"
          value={form.frequency}
          options={FREQUENCIES}
          onChange={(v) => set('frequency', v)}
          help={frequency?.help}
        />

        <RecipientsField
          field="alertRecipients"
          label="Alert recipients"
          value={form.alertRecipients}
          error={errors.alertRecipients}
          hint={`E-mail addresses, one a line or separated by commas (at most ${MAX_RECIPIENTS}). Every mail has a link to unsubscribe.`}
          onChange={(v) => set('alertRecipients', v)}
        />

        <div className="divide-y divide-slate-100 border-y border-slate-100">
          <Switch
            label="Negative sentiment alert"
            description={NEGATIVE_HELP}
            checked={form.negativeSentiment}
            onChange={(v) => set('negativeSentiment', v)}
          />
          <div>
            <Switch label="Activity spike alert" description={SPIKE_HELP} checked={form.spike} onChange={(v) => set('spike', v)} />
            <div className={`grid gap-4 pb-3 sm:grid-cols-2 ${form.spike ? '' : 'opacity-60'}`} data-testid="spike-options">
              <SelectField
                label="Spike sensitivity"
                value={form.spikeSensitivity}
                options={SENSITIVITIES}
                onChange={(v) => set('spikeSensitivity', v)}
                hint="High alerts on smaller rises; Low only on the largest."
              />
              <NumberField
                field="spikeMinPosts"
                label="Minimum posts in 2 hours"
                value={form.spikeMinPosts}
                error={errors.spikeMinPosts}
                hint="Fewer posts than this never alert, however unusual."
                onChange={(v) => set('spikeMinPosts', v)}
              />
            </div>
          </div>
        </div>

        <fieldset aria-describedby="influencer-help">
          <legend className="text-sm font-medium text-slate-800">Influencer alerts</legend>
          <p id="influencer-help" className="mt-0.5 text-xs text-slate-500">
            {INFLUENCER_HELP}
          </p>
          <div className="mt-3 divide-y divide-slate-100 rounded-lg border border-slate-200">
            {INFLUENCER_PLATFORMS.map((p) => (
              <div key={p.name} className="grid items-start gap-3 px-3 py-3 sm:grid-cols-[6.5rem_1fr_1fr_auto]" data-platform={p.name}>
                <p className="pt-7 text-sm font-semibold text-slate-700 max-sm:pt-0" aria-hidden="true">
                  {p.name}
                </p>
                {p.thresholds.map((t) => (
                  <NumberField
                    key={t.key}
                    field={t.key}
                    label={
                      <>
                        <span className="sr-only">{p.name} </span>
                        {t.label} ≥
                      </>
                    }
                    placeholder="0"
                    value={form.thresholds[t.key]}
                    error={errors[t.key]}
                    onChange={(v) => setThreshold(t.key, v)}
                  />
                ))}
                {p.thresholds.length < 2 ? <span className="max-sm:hidden" /> : null}
                {p.verified ? (
                  <div className="sm:pt-8">
                    <CheckField
                      label={
                        <>
                          <span className="sr-only">{p.name} </span>Verified accounts
                        </>
                      }
                      checked={form[p.verified]}
                      onChange={(v) => set(p.verified!, v)}
                    />
                  </div>
                ) : (
                  <span className="max-sm:hidden" />
                )}
              </div>
            ))}
          </div>
        </fieldset>
      </div>
    </Panel>
  );
}
