// The Destinations panel: where alerts go besides the recipients' inboxes (a webhook with its
// signing secret, a Slack incoming webhook), and a test message to each saved destination.
import { useId, type ReactNode } from 'react';
import { useSendTestNotification, type Destination, type NotificationsView } from '../../api/queries/notifications';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { CopyField } from '../../components/CopyField';
import { IconCode, IconMail, IconPosts } from '../../components/icons';
import { Panel } from '../../components/Panel';
import { errorMessage } from '../../lib/errors';
import { UrlField, type FormBinding } from './fields';
import { testResult } from './history-data';
import { splitRecipients, type NotificationForm } from './notification-form';

export const NO_SMTP_TEXT =
  'The server administrator has not set up an SMTP server, so no alert or report can be sent by e-mail. Webhook and Slack alerts still go out.';
export const SAVE_FIRST_TEXT = 'Save your changes first.';
export const SIGNATURE_TEXT = 'Each request carries an X-Hark-Signature: sha256=… header, the HMAC-SHA256 of the request body with this secret.';

export function DestinationsPanel({
  form,
  errors,
  set,
  view,
  saved,
  hash,
  dirty,
  className = '',
}: Pick<FormBinding, 'form' | 'errors' | 'set'> & {
  view: NotificationsView;
  /** The settings as saved: a test goes to those. */
  saved: NotificationForm;
  hash: string;
  dirty: boolean;
  className?: string;
}) {
  const blocked = (notSet: string | null) => (dirty ? SAVE_FIRST_TEXT : notSet);
  const alertCount = splitRecipients(form.alertRecipients).length;
  const reportCount = splitRecipients(form.reportRecipients).length;
  const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
  return (
    <Panel title="Destinations" id="destinations" className={className}>
      <div className="divide-y divide-slate-100">
        <DestinationBlock title="E-mail" icon={<IconMail size={18} />}>
          <p className="text-sm text-slate-600">
            Alerts go to the alert recipients and reports to the report recipients (now{' '}
            {plural(alertCount, 'alert recipient')}, {plural(reportCount, 'report recipient')}).
          </p>
          {!view.mailConfigured ? (
            <Alert tone="warning" className="mt-2">
              {NO_SMTP_TEXT}
            </Alert>
          ) : null}
          <SendTest
            hash={hash}
            destination="email"
            blocked={blocked(
              !view.mailConfigured ? 'No SMTP server is set up.' : splitRecipients(saved.alertRecipients).length === 0 ? 'Save an alert recipient first.' : null,
            )}
          />
        </DestinationBlock>

        <DestinationBlock title="Webhook" icon={<IconCode size={18} />}>
          <UrlField
            field="webhookUrl"
            label="Webhook URL"
            value={form.webhookUrl}
            error={errors.webhookUrl}
            placeholder="https://example.org/hark-alerts"
            hint="Each alert is POSTed to this address as JSON. Empty: off."
            onChange={(v) => set('webhookUrl', v)}
          />
          {view.webhookSecret ? (
            <div className="mt-3">
              <CopyField label="Signing secret" value={view.webhookSecret} hint={SIGNATURE_TEXT} />
            </div>
          ) : (
            <p className="mt-2 text-xs text-slate-500">A signing secret is made when a webhook address is saved.</p>
          )}
          <SendTest hash={hash} destination="webhook" blocked={blocked(saved.webhookUrl.trim() ? null : 'Save a webhook URL first.')} />
        </DestinationBlock>

        <DestinationBlock title="Slack" icon={<IconPosts size={18} />}>
          <UrlField
            field="slackUrl"
            label="Slack incoming-webhook URL"
            value={form.slackUrl}
            error={errors.slackUrl}
            placeholder="https://hooks.slack.com/services/…"
            hint="Add an incoming webhook to a channel of your Slack workspace and paste its address. Empty: off."
            onChange={(v) => set('slackUrl', v)}
          />
          <SendTest hash={hash} destination="slack" blocked={blocked(saved.slackUrl.trim() ? null : 'Save a Slack URL first.')} />
        </DestinationBlock>
      </div>
    </Panel>
  );
}

function DestinationBlock({ title, icon, children }: { title: string; icon: ReactNode; children: ReactNode }) {
  const id = useId();
  return (
    <div role="group" aria-labelledby={id} className="py-4 first:pt-3">
      <h3 id={id} className="mb-2 flex items-center gap-2 text-sm font-semibold text-slate-800">
        <span className="text-slate-400">{icon}</span>
        {title}
      </h3>
      {children}
    </div>
  );
}

/** "Send test" for one saved destination, with why it cannot be used yet and how the last test went. */
function SendTest({ hash, destination, blocked }: { hash: string; destination: Destination; blocked: string | null }) {
  const test = useSendTestNotification(hash);
  const hintId = useId();
  const result = test.isPending
    ? null
    : test.data
      ? testResult(test.data.delivery)
      : test.isError
        ? { ok: false, text: errorMessage(test.error) }
        : null;
  return (
    <div className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-1">
      <Button
        variant="secondary"
        size="sm"
        disabled={!!blocked}
        loading={test.isPending}
        title={blocked ?? undefined}
        aria-describedby={blocked ? hintId : undefined}
        onClick={() => test.mutate(destination)}
      >
        Send test
      </Button>
      {blocked ? (
        <span id={hintId} className="text-xs text-slate-500">
          {blocked}
        </span>
      ) : null}
      <span role="status" className="min-w-0 text-sm" data-testid={`test-result-${destination}`}>
        {test.isPending ? <span className="text-slate-500">Sending…</span> : null}
        {result ? <span className={result.ok ? 'font-medium text-emerald-700' : 'text-red-700'}>{result.text}</span> : null}
      </span>
    </div>
  );
}
