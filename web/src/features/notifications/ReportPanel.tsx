// The Periodic report panel: on or off, how often, to whom, whether a period without new posts
// still gets one, and when the next one goes out.
import { Panel } from '../../components/Panel';
import { Switch } from '../../components/Switch';
import { IconFileText } from '../../components/icons';
import { formatDateTime, formatRelative } from '../../lib/dates';
import { RecipientsField, Segmented, type FormBinding } from './fields';
import { MAX_RECIPIENTS, REPORT_FREQUENCIES } from './notification-form';

export function ReportPanel({
  form,
  errors,
  set,
  nextReportAt,
  timeZone,
  scheduleChanged,
  now,
  className = '',
}: FormBinding & { nextReportAt: number | null; timeZone: string; scheduleChanged: boolean; now: number; className?: string }) {
  return (
    <Panel title="Periodic report" id="report" className={className}>
      <div className="space-y-4 py-2">
        <Switch
          label="Send a periodic report"
          description="A summary of the period’s posts, top influencers and sentiment, by e-mail."
          checked={form.reportEnabled}
          onChange={(v) => set('reportEnabled', v)}
        />
        <Segmented
          legend="Report frequency"
          name="report-frequency"
          value={form.reportFrequency}
          options={REPORT_FREQUENCIES}
          onChange={(v) => set('reportFrequency', v)}
        />
        <RecipientsField
          field="reportRecipients"
          label="Report recipients"
          value={form.reportRecipients}
          error={errors.reportRecipients}
          hint={`One a line or separated by commas (at most ${MAX_RECIPIENTS}).`}
          onChange={(v) => set('reportRecipients', v)}
        />
        <div className="border-t border-slate-100">
          <Switch
            label="Send even when there are no new posts"
            description="Off: a period without new posts sends nothing."
            checked={form.sendWithoutUpdates}
            onChange={(v) => set('sendWithoutUpdates', v)}
          />
        </div>
        <div className="flex items-start gap-3 rounded-md bg-slate-50 px-3 py-2.5 text-sm" data-testid="next-report">
          <IconFileText size={18} className="mt-0.5 shrink-0 text-slate-400" />
          <div className="min-w-0">
            {nextReportAt !== null ? (
              <p className="text-slate-800">
                Next report: <span className="font-medium">{formatDateTime(nextReportAt, { timeZone, weekday: true })}</span>
                <span className="text-slate-500"> ({formatRelative(nextReportAt, now)})</span>
              </p>
            ) : (
              <p className="text-slate-800">No report is scheduled.</p>
            )}
            <p className="text-xs text-slate-500">The PDF report of the period is attached to each mail.</p>
            {scheduleChanged ? <p className="text-xs text-amber-800">Save to update the schedule.</p> : null}
          </div>
        </div>
      </div>
    </Panel>
  );
}
