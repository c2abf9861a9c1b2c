// /join/{token}: the sign-up link of an invitation to a tracker's team. A new address makes its
// account here and is signed in; an address with an account signs in and accepts; a link that
// was used, withdrawn or has expired says so.
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/client';
import { useLogout } from '../../api/queries/auth';
import { useMe } from '../../api/queries/me';
import { useAcceptInvitation, useInvitation, type InvitationView } from '../../api/queries/team';
import { useTrackers } from '../../api/queries/trackers';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { LoadError } from '../../components/LoadError';
import { LoadingState } from '../../components/Spinner';
import { TextField } from '../../components/TextField';
import { errorMessage, fieldErrors } from '../../lib/errors';
import { rankName } from '../../lib/ranks';
import { AuthLayout } from './AuthLayout';
import { joinedTrackerPath, signInToJoin, TRACKER_LIST } from './join';
import { validateAccount, type AccountErrors } from './validation';

const linkButton =
  'inline-flex h-9 w-full items-center justify-center rounded-md bg-brand-600 px-4 text-sm font-medium text-white hover:bg-brand-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2';
const textLink = 'font-medium text-brand-700 hover:text-brand-600 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500';

export function JoinPage() {
  const { token = '' } = useParams();
  // GET /me also sets the CSRF cookie the accept POST echoes.
  const me = useMe();
  const invitation = useInvitation(token);
  const accept = useAcceptInvitation(token);
  const navigate = useNavigate();
  // Once accepted, the tracker list (now holding the joined tracker) says where to go.
  const [joined, setJoined] = useState(false);
  const trackers = useTrackers(1, joined);
  const title = invitation.data?.trackerTitle ?? '';
  useEffect(() => {
    if (!joined) return;
    if (trackers.isSuccess) navigate(joinedTrackerPath(trackers.data.trackers, title), { replace: true });
    else if (trackers.isError) navigate(TRACKER_LIST, { replace: true });
  }, [joined, trackers.isSuccess, trackers.isError, trackers.data, title, navigate]);

  if (joined) return <LoadingState label="Opening the tracker…" />;
  if (invitation.isPending || me.isPending) return <LoadingState />;
  if (invitation.isError) {
    const gone = invitation.error instanceof ApiError && invitation.error.status === 404;
    if (gone) return <InvalidLink signedIn={!!me.data?.isLoggedIn} />;
    return (
      <AuthLayout title="Join a tracker">
        <LoadError error={invitation.error} onRetry={() => invitation.refetch()} compact />
      </AuthLayout>
    );
  }

  const inv = invitation.data;
  const signedIn = !!me.data?.isLoggedIn;
  const sameAddress = signedIn && (me.data?.email ?? '').toLowerCase() === inv.email.toLowerCase();
  const onJoined = () => setJoined(true);

  return (
    <AuthLayout title="You're invited" subtitle={<Invite inv={inv} />}>
      {signedIn && sameAddress ? (
        <AcceptAsSignedIn email={inv.email} accept={accept} onJoined={onJoined} />
      ) : signedIn ? (
        <OtherAccount signedInAs={me.data?.email ?? ''} invited={inv.email} />
      ) : inv.hasAccount ? (
        <SignInFirst token={token} email={inv.email} />
      ) : (
        <NewAccountForm token={token} email={inv.email} accept={accept} onJoined={onJoined} />
      )}
    </AuthLayout>
  );
}

function Invite({ inv }: { inv: InvitationView }) {
  const tracker = <strong className="font-semibold text-slate-900">{inv.trackerTitle}</strong>;
  const rank = <strong className="font-semibold text-slate-900">{rankName(inv.permission).toLowerCase()}</strong>;
  return inv.invitedBy ? (
    <span data-testid="invitation-summary">
      <strong className="font-semibold text-slate-900">{inv.invitedBy}</strong> invited you to {tracker} as {withArticle(rank, inv.permission)}.
    </span>
  ) : (
    <span data-testid="invitation-summary">
      You are invited to {tracker} as {withArticle(rank, inv.permission)}.
    </span>
  );
}

/** "a viewer", "an editor", "an administrator". */
function withArticle(rank: ReactNode, permission: number): ReactNode {
  const vowel = /^[aeiou]/i.test(rankName(permission));
  return (
    <>
      {vowel ? 'an' : 'a'} {rank}
    </>
  );
}

type Accept = ReturnType<typeof useAcceptInvitation>;

function NewAccountForm({ token, email, accept, onJoined }: { token: string; email: string; accept: Accept; onJoined: () => void }) {
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<AccountErrors>({});
  const server = accept.isError ? fieldErrors(accept.error) : {};
  const conflict = accept.error instanceof ApiError && accept.error.status === 409;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const v = validateAccount({ name, email, password }, true);
    setErrors(v);
    if (Object.keys(v).length) return;
    accept.mutate({ name: name.trim(), password }, { onSuccess: onJoined });
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      {conflict ? (
        <Alert>
          {errorMessage(accept.error)}{' '}
          <Link to={signInToJoin(token)} className={textLink}>
            Sign in
          </Link>
        </Alert>
      ) : accept.isError && Object.keys(server).length === 0 ? (
        <Alert>{errorMessage(accept.error)}</Alert>
      ) : null}
      <TextField label="Email" name="email" type="email" value={email} readOnly hint="The invitation is for this address." />
      <TextField
        label="Name"
        name="name"
        autoComplete="name"
        value={name}
        onChange={(e) => {
          setName(e.target.value);
          // A field being corrected loses its message at once; the others keep theirs until the next try.
          setErrors((v) => ({ ...v, name: undefined }));
        }}
        error={errors.name ?? server.name}
      />
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={(e) => {
          setPassword(e.target.value);
          setErrors((v) => ({ ...v, password: undefined }));
        }}
        error={errors.password ?? server.password}
        hint="At least 8 characters."
      />
      <Button type="submit" className="w-full" loading={accept.isPending}>
        Create account and join
      </Button>
    </form>
  );
}

function SignInFirst({ token, email }: { token: string; email: string }) {
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">
        An account with <strong className="font-semibold">{email}</strong> already exists. Sign in with it to accept the invitation; you come back here afterwards.
      </p>
      <Link to={signInToJoin(token)} className={linkButton}>
        Sign in to accept
      </Link>
    </div>
  );
}

function AcceptAsSignedIn({ email, accept, onJoined }: { email: string; accept: Accept; onJoined: () => void }) {
  return (
    <div className="space-y-4">
      {accept.isError ? <Alert>{errorMessage(accept.error)}</Alert> : null}
      <p className="text-sm text-slate-700">
        You are signed in as <strong className="font-semibold">{email}</strong>.
      </p>
      <Button className="w-full" loading={accept.isPending} onClick={() => accept.mutate({}, { onSuccess: onJoined })}>
        Accept invitation
      </Button>
    </div>
  );
}

function OtherAccount({ signedInAs, invited }: { signedInAs: string; invited: string }) {
  const logout = useLogout();
  return (
    <div className="space-y-4">
      <Alert tone="warning">
        You are signed in as <strong className="font-semibold">{signedInAs}</strong>, but this invitation is for{' '}
        <strong className="font-semibold">{invited}</strong>. Sign out, then accept it with that address.
      </Alert>
      {logout.isError ? <Alert>{errorMessage(logout.error)}</Alert> : null}
      <Button variant="secondary" className="w-full" loading={logout.isPending} onClick={() => logout.mutate()}>
        Sign out
      </Button>
    </div>
  );
}

function InvalidLink({ signedIn }: { signedIn: boolean }) {
  return (
    <AuthLayout title="This invitation link no longer works">
      <div role="alert" className="space-y-4">
        <p className="text-sm text-slate-700">
          It was used already, withdrawn, or it expired. Ask the person who invited you for a new link.
        </p>
        <Link to={signedIn ? TRACKER_LIST : '/login'} className={linkButton}>
          {signedIn ? 'Go to your trackers' : 'Go to sign in'}
        </Link>
      </div>
    </AuthLayout>
  );
}
