// /unsubscribe?token=… — the link at the foot of every alert and report mail. No sign-in: opening
// it unsubscribes at once (one click from the mail), then says which address left which tracker.
import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../../api/client';
import { useMe } from '../../api/queries/me';
import { useUnsubscribe } from '../../api/queries/notifications';
import { Button } from '../../components/Button';
import { LoadingState } from '../../components/Spinner';
import { loadErrorMessage } from '../../lib/errors';
import { AuthLayout } from '../auth/AuthLayout';

export const MISSING_TOKEN_TEXT = 'This unsubscribe link is incomplete. Open it again from the e-mail, or copy the whole address.';

export function unsubscribedText(tracker: string, email: string): string {
  return `You will no longer receive alerts or reports about ${tracker} at ${email}.`;
}

const homeLink =
  'inline-flex h-9 items-center justify-center rounded-md border border-slate-300 bg-white px-4 text-sm font-medium text-slate-700 hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2';

export function UnsubscribePage() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  // GET /me first gives this browser a CSRF cookie, which the POST echoes as every change does
  // (the server takes this one without it too, for mail clients' one-click unsubscribe).
  const me = useMe();
  const unsubscribe = useUnsubscribe();
  const sent = useRef(false);
  const ready = !me.isPending;
  const { mutate } = unsubscribe;
  useEffect(() => {
    if (!token || !ready || sent.current) return;
    sent.current = true;
    mutate(token);
  }, [token, ready, mutate]);

  if (!token) {
    return (
      <AuthLayout title="Unsubscribe">
        <p role="alert" className="text-sm text-slate-700">
          {MISSING_TOKEN_TEXT}
        </p>
      </AuthLayout>
    );
  }
  if (unsubscribe.isSuccess) {
    const { tracker, email } = unsubscribe.data;
    return (
      <AuthLayout title="You are unsubscribed">
        <p role="status" className="text-sm leading-6 text-slate-700" data-testid="unsubscribed">
          You will no longer receive alerts or reports about <strong className="font-semibold text-slate-900">{tracker}</strong> at{' '}
          <strong className="font-semibold text-slate-900">{email}</strong>.
        </p>
        <p className="mt-3 text-xs text-slate-500">Unsubscribed by mistake? Ask the tracker’s owner to add your address again.</p>
        <Link to="/" className={`${homeLink} mt-6 w-full`}>
          Go to Hark
        </Link>
      </AuthLayout>
    );
  }
  if (unsubscribe.isError) {
    const gone = unsubscribe.error instanceof ApiError && unsubscribe.error.status === 404;
    return (
      <AuthLayout title={gone ? 'This link no longer works' : 'You are not unsubscribed yet'}>
        <p role="alert" className="text-sm leading-6 text-slate-700">
          {loadErrorMessage(unsubscribe.error)}
        </p>
        {gone ? (
          <p className="mt-3 text-xs text-slate-500">The address may have been removed already, or the tracker deleted.</p>
        ) : (
          <Button className="mt-6 w-full" onClick={() => mutate(token)}>
            Try again
          </Button>
        )}
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title="Unsubscribe">
      <LoadingState label="Unsubscribing…" />
    </AuthLayout>
  );
}
