import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { ApiError } from '../../api/client';
import { useMe } from '../../api/queries/me';
import {
  useDeleteTracker,
  usePauseTracker,
  useRestartTracker,
  useUpdateTracker,
  type EditMode,
} from '../../api/queries/tracker-mutations';
import { useTracker } from '../../api/queries/trackers';
import type { Tracker } from '../../api/types';
import { Alert } from '../../components/Alert';
import { AppHeader } from '../../components/AppHeader';
import { Button } from '../../components/Button';
import { SampleDataNotice } from '../../components/SampleDataNotice';
import { LoadingState } from '../../components/Spinner';
import { StatusDot } from '../../components/StatusDot';
import { formatCount, formatDay } from '../../lib/dates';
import { errorMessage, fieldErrors } from '../../lib/errors';
import { RequireSignIn } from '../auth';
import { AuditSection } from './AuditSection';
import { CollectionStatusSection } from './CollectionStatusSection';
import { DeleteTrackerDialog } from './DeleteTrackerDialog';
import { ImportPostsSection } from './ImportPostsSection';
import { PrivacySection } from './PrivacySection';
import { accessOf, limitsOf } from './limits';
import { SaveChangesModal } from './SaveChangesModal';
import { TrackerForm } from './TrackerForm';
import {
  dashboardPath,
  deleteDestination,
  formHasErrors,
  hasChanges,
  rememberSearch,
  toInput,
  validateForm,
  valuesFromTracker,
  type TrackerFormValues,
} from './tracker-form';

/** /edit/{hash}/{friendly}: Tracker Settings. */
export function EditTrackerPage() {
  return (
    <RequireSignIn>
      <EditTracker />
    </RequireSignIn>
  );
}

function EditTracker() {
  const { hash = '' } = useParams();
  const tracker = useTracker(hash);

  if (tracker.isPending) return <Page><LoadingState label="Loading tracker…" /></Page>;
  if (tracker.isError || !tracker.data) {
    const notFound = tracker.error instanceof ApiError && tracker.error.status === 404;
    return (
      <Page>
        <Alert>{notFound ? 'This tracker does not exist or you do not have access to it.' : errorMessage(tracker.error)}</Alert>
        <Link to="/mytracks/hashtag" className="mt-4 inline-block text-sm font-medium text-brand-700 hover:underline">
          Back to the tracker list
        </Link>
      </Page>
    );
  }
  return <SettingsForm key={tracker.data.hash} tracker={tracker.data} />;
}

function Page({ children }: { children: React.ReactNode }) {
  return (
    <div className="min-h-screen bg-slate-50">
      <AppHeader />
      <main className="mx-auto max-w-4xl px-4 py-8">{children}</main>
    </div>
  );
}

function SettingsForm({ tracker }: { tracker: Tracker }) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const demo = params.get('demo') === 'true';
  const me = useMe(tracker.hash);
  const saved = useMemo(() => valuesFromTracker(tracker), [tracker]);
  const [values, setValues] = useState<TrackerFormValues>(saved);
  const [attempts, setAttempts] = useState(0);
  const [modalOpen, setModalOpen] = useState(false);
  const [pendingMode, setPendingMode] = useState<EditMode | null>(null);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const update = useUpdateTracker(tracker.hash);
  const pause = usePauseTracker(tracker.hash);
  const restart = useRestartTracker(tracker.hash);
  const remove = useDeleteTracker(tracker.hash);

  // The current search is kept in local storage before it is edited.
  useEffect(() => {
    rememberSearch(window.localStorage, tracker);
    // Only once per tracker: later saves replace the tracker object.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [tracker.hash]);

  const permission = Math.max(tracker.permission ?? 0, me.data?.permission ?? 0);
  const canEdit = permission >= 2 && !demo;
  const canManage = permission >= 3 && !demo;
  const server = update.error instanceof ApiError && update.error.status === 422 ? fieldErrors(update.error) : {};
  const modalError = update.isError && Object.keys(server).length === 0 ? errorMessage(update.error) : null;
  const dashboard = dashboardPath(tracker);

  const save = (e: FormEvent) => {
    e.preventDefault();
    if (!canEdit) return;
    setAttempts((n) => n + 1);
    if (formHasErrors(validateForm(values))) {
      setModalOpen(false);
      return;
    }
    if (!hasChanges(values, saved)) {
      navigate(dashboard);
      return;
    }
    update.reset();
    setModalOpen(true);
  };

  const choose = (mode: EditMode) => {
    setPendingMode(mode);
    update.mutate(
      { ...toInput(values), mode },
      {
        onSuccess: (t) => navigate(dashboardPath(t)),
        onError: (err) => {
          setPendingMode(null);
          if (err instanceof ApiError && err.status === 422) setModalOpen(false);
        },
      },
    );
  };

  const confirmDelete = () => {
    remove.mutate(undefined, {
      onSuccess: (res) => {
        if (res?.status === 'error') return;
        navigate(deleteDestination({ referrer: document.referrer, fromSettingsArea: false, kind: 'ht' }), { replace: true });
      },
    });
  };

  const statusError = pause.error ?? restart.error;

  return (
    <Page>
      <nav aria-label="Breadcrumb" className="flex flex-wrap items-center gap-1 text-sm text-slate-500">
        <Link to="/mytracks/hashtag" className="hover:text-slate-800 hover:underline">
          Trackers
        </Link>
        <span aria-hidden="true">/</span>
        <Link to={dashboard} className="max-w-72 truncate hover:text-slate-800 hover:underline">
          {tracker.title}
        </Link>
        <span aria-hidden="true">/</span>
        <span className="text-slate-700">Settings</span>
      </nav>
      <div className="mt-2 flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-semibold text-slate-900">Tracker Settings</h1>
        <Link
          to={dashboard}
          className="inline-flex h-9 items-center rounded-md border border-slate-300 bg-white px-4 text-sm font-medium text-slate-700 hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
        >
          Back to dashboard
        </Link>
      </div>

      {tracker.isDemo && <SampleDataNotice className="mt-6 rounded-lg border" />}

      <section aria-label="Status" className="mt-6 flex flex-wrap items-center gap-x-8 gap-y-3 rounded-lg border border-slate-200 bg-white px-5 py-4 shadow-sm">
        <StatusDot status={tracker.status} />
        <div className="text-sm text-slate-600">
          <span className="text-slate-500">Posts </span>
          <span className="font-semibold tabular-nums text-slate-900">{formatCount(tracker.totalPosts)}</span>
        </div>
        <div className="text-sm text-slate-600">
          <span className="text-slate-500">Created </span>
          {formatDay(tracker.created)}
        </div>
        {canManage && (
          <div className="ml-auto">
            {tracker.status === 'running' ? (
              <Button variant="secondary" size="sm" loading={pause.isPending} onClick={() => { restart.reset(); pause.mutate(); }}>
                Pause tracker
              </Button>
            ) : (
              <Button size="sm" loading={restart.isPending} onClick={() => { pause.reset(); restart.mutate(); }}>
                Restart tracker
              </Button>
            )}
          </div>
        )}
        {statusError && <Alert className="basis-full">{errorMessage(statusError)}</Alert>}
      </section>

      {!canEdit && (
        <Alert tone="info" className="mt-6">
          {demo ? 'This is a demo: the search form is read-only.' : 'You can view this tracker’s search settings but not change them.'}
        </Alert>
      )}

      <form onSubmit={save} noValidate className="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm" aria-label="Edit Tracker Search Settings">
        <h2 className="mb-5 text-base font-semibold text-slate-900">Edit Tracker Search Settings</h2>
        <TrackerForm
          values={values}
          onChange={setValues}
          limits={limitsOf(me.data)}
          access={accessOf(me.data)}
          readOnly={!canEdit}
          attempts={attempts}
          serverErrors={server}
        />
        {canEdit && (
          <div className="mt-8 flex items-center justify-end gap-3 border-t border-slate-200 pt-5">
            <Button
              variant="ghost"
              onClick={() => {
                setValues(saved);
                setAttempts(0);
                update.reset();
              }}
            >
              Reset
            </Button>
            <Button type="submit">Save</Button>
          </div>
        )}
      </form>

      {canEdit && !tracker.isDemo && (
        <CollectionStatusSection hash={tracker.hash} isAdmin={me.data?.isAdmin === true} running={tracker.status === 'running'} />
      )}

      {canManage && !tracker.isDemo && <ImportPostsSection hash={tracker.hash} />}

      {canManage && !tracker.isDemo && tracker.platforms.fb === 1 && (
        <PrivacySection hash={tracker.hash} anonymizeFacebook={tracker.anonymizeFacebook === true} />
      )}

      {canManage && !tracker.isDemo && <AuditSection hash={tracker.hash} />}

      {canManage && (
        <section aria-labelledby="danger-zone" className="mt-6 rounded-lg border border-red-200 bg-white p-6 shadow-sm">
          <h2 id="danger-zone" className="text-base font-semibold text-slate-900">
            Delete this tracker
          </h2>
          <p className="mt-1 text-sm text-slate-600">The tracker stops collecting and every post it collected is deleted.</p>
          <Button variant="danger" className="mt-4" onClick={() => { remove.reset(); setDeleteOpen(true); }}>
            Delete
          </Button>
        </section>
      )}

      <SaveChangesModal
        open={modalOpen}
        onOpenChange={setModalOpen}
        onChoose={choose}
        pending={pendingMode}
        error={modalError}
      />
      <DeleteTrackerDialog
        open={deleteOpen}
        onOpenChange={setDeleteOpen}
        title={tracker.title}
        onConfirm={confirmDelete}
        pending={remove.isPending}
        error={remove.isError ? errorMessage(remove.error) : null}
      />
    </Page>
  );
}
