import { useState, type FormEvent } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { useSetup, useSetupStatus } from '../../api/queries/auth';
import { useMe } from '../../api/queries/me';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { LoadingState } from '../../components/Spinner';
import { TextField } from '../../components/TextField';
import { errorMessage, fieldErrors } from '../../lib/errors';
import { AuthLayout } from './AuthLayout';
import { DemoLink } from './DemoLink';
import { validateAccount, type AccountErrors } from './validation';

/** First visit: creates the first account, which becomes the instance administrator. */
export function SetupPage() {
  const status = useSetupStatus();
  // GET /me also sets the CSRF cookie that the POST below must echo.
  const me = useMe();
  const setup = useSetup();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<AccountErrors>({});

  if (status.isPending || me.isPending) return <LoadingState />;
  if (status.data && !status.data.needsSetup && !setup.isSuccess) return <Navigate to="/login" replace />;

  const server = setup.isError ? fieldErrors(setup.error) : {};

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const v = validateAccount({ name, email, password }, true);
    setErrors(v);
    if (Object.keys(v).length) return;
    setup.mutate(
      { name: name.trim(), email: email.trim(), password },
      { onSuccess: () => navigate('/mytracks/hashtag', { replace: true }) },
    );
  };

  return (
    <AuthLayout
      title="Set up Hark"
      subtitle="Create the first account. It becomes the administrator of this instance."
      footer={<DemoLink />}
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        {setup.isError && Object.keys(server).length === 0 && <Alert>{errorMessage(setup.error)}</Alert>}
        <TextField label="Name" name="name" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} error={errors.name ?? server.name} />
        <TextField label="Email" name="email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} error={errors.email ?? server.email} />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={errors.password ?? server.password}
          hint="At least 8 characters."
        />
        <Button type="submit" className="w-full" loading={setup.isPending}>
          Create account
        </Button>
      </form>
    </AuthLayout>
  );
}
