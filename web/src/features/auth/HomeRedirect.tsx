import { Navigate } from 'react-router';
import { useSetupStatus } from '../../api/queries/auth';
import { useMe } from '../../api/queries/me';
import { Alert } from '../../components/Alert';
import { LoadingState } from '../../components/Spinner';
import { errorMessage } from '../../lib/errors';

/** '/': setup on a fresh instance, the tracker list when signed in, otherwise sign in. */
export function HomeRedirect() {
  const status = useSetupStatus();
  const needsSetup = status.data?.needsSetup;
  const me = useMe();
  if (status.isError) {
    return (
      <div className="mx-auto max-w-md p-8">
        <Alert>{errorMessage(status.error)}</Alert>
      </div>
    );
  }
  if (status.isPending) return <LoadingState />;
  if (needsSetup) return <Navigate to="/setup" replace />;
  if (me.isPending) return <LoadingState />;
  if (me.data?.isLoggedIn) return <Navigate to="/mytracks/hashtag" replace />;
  return <Navigate to="/login" replace />;
}
