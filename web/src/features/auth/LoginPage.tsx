import { useState, type FormEvent } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { useLogin, useSetupStatus } from '../../api/queries/auth';
import { useMe } from '../../api/queries/me';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { LoadingState } from '../../components/Spinner';
import { TextField } from '../../components/TextField';
import { errorMessage } from '../../lib/errors';
import { AuthLayout } from './AuthLayout';
import { DemoLink } from './DemoLink';
import { nextPath } from './validation';

export function LoginPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const status = useSetupStatus();
  const me = useMe();
  const login = useLogin();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [missing, setMissing] = useState<string | null>(null);
  const target = nextPath(location.search);

  if (status.isPending || me.isPending) return <LoadingState />;
  if (status.data?.needsSetup) return <Navigate to="/setup" replace />;
  if (me.data?.isLoggedIn && !login.isPending && !login.isSuccess) return <Navigate to={target} replace />;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!email.trim() || !password) {
      setMissing('Enter your email and password.');
      return;
    }
    setMissing(null);
    login.mutate({ email: email.trim(), password }, { onSuccess: () => navigate(target, { replace: true }) });
  };

  return (
    <AuthLayout title="Sign in" subtitle="Sign in to see your trackers." footer={<DemoLink />}>
      <form onSubmit={submit} noValidate className="space-y-4">
        {missing && <Alert>{missing}</Alert>}
        {login.isError && <Alert>{errorMessage(login.error)}</Alert>}
        <TextField label="Email" name="email" type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} />
        <TextField label="Password" name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        <Button type="submit" className="w-full" loading={login.isPending}>
          Sign in
        </Button>
      </form>
    </AuthLayout>
  );
}
