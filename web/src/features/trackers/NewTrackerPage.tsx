import { useReducer, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useMe } from '../../api/queries/me';
import { trackerKeys } from '../../api/queries/trackers';
import { useCreateTracker } from '../../api/queries/tracker-mutations';
import { ApiError, del } from '../../api/client';
import { Alert } from '../../components/Alert';
import { AppHeader } from '../../components/AppHeader';
import { Button } from '../../components/Button';
import { LoadingState } from '../../components/Spinner';
import { endPreview, samplePreview } from '../../api/queries/preview';
import { errorMessage, fieldErrors } from '../../lib/errors';
import { PreviewSteps } from '../preview/PreviewSteps';
import { initialFlow, previewFlowReducer, PREVIEW_FAILED, realtimePreviewEnabled, startPreview, type PreviewNavState } from '../preview/preview-flow';
import { RequireSignIn } from '../auth';
import { accessOf, limitsOf } from './limits';
import { TrackerForm } from './TrackerForm';
import { dashboardPath, emptyValues, formHasErrors, toInput, validateForm, type TrackerFormValues } from './tracker-form';

/** /new/ht/step1 and /new/sl/step1: build a search and save a tracker. */
export function NewTrackerPage() {
  const [params] = useSearchParams();
  const demo = params.get('demo') === 'true';
  if (demo) return <NewTracker demo />;
  return (
    <RequireSignIn>
      <NewTracker demo={false} />
    </RequireSignIn>
  );
}

function NewTracker({ demo }: { demo: boolean }) {
  const location = useLocation();
  const navigate = useNavigate();
  const me = useMe();
  const create = useCreateTracker();
  const qc = useQueryClient();
  // Back from the high-volume warning's "Edit keywords": the form as it was.
  const [values, setValues] = useState<TrackerFormValues>(() => (location.state as { values?: TrackerFormValues } | null)?.values ?? emptyValues());
  const [attempts, setAttempts] = useState(0);
  const [flow, dispatch] = useReducer(previewFlowReducer, initialFlow);
  const [previewFailed, setPreviewFailed] = useState(false);
  const social = location.pathname.startsWith('/new/sl');

  if (me.isPending) return <LoadingState />;

  const server = create.error instanceof ApiError ? fieldErrors(create.error) : {};
  const generalError = previewFailed
    ? PREVIEW_FAILED
    : create.isError && Object.keys(server).length === 0
      ? errorMessage(create.error)
      : null;

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (demo || flow.loading) return;
    setAttempts((n) => n + 1);
    if (formHasErrors(validateForm(values))) return;
    setPreviewFailed(false);
    const realtime = realtimePreviewEnabled();
    let created: string | null = null;
    try {
      const { tracker, total } = await startPreview(
        toInput(values),
        realtime,
        {
          create: async (input) => {
            const t = await create.mutateAsync(input);
            created = t.hash;
            return t;
          },
          sample: samplePreview,
          end: endPreview,
        },
        dispatch,
      );
      // The cached tracker is the one the flow ended with (out of preview mode without websockets).
      qc.setQueryData(trackerKeys.one(tracker.hash), tracker);
      const state: PreviewNavState = { fromCreation: { path: location.pathname, values } };
      if (total !== null) state.endedPreview = { total, from: 'new' };
      navigate(dashboardPath(tracker), { state });
    } catch {
      // A refused tracker shows the create call's errors; a failed sample says so and the
      // half-made tracker goes away, so saving again makes one tracker.
      if (created) {
        setPreviewFailed(true);
        await del(`/trackers/${encodeURIComponent(created)}`).catch(() => undefined);
      }
    }
  };

  return (
    <div className="min-h-screen bg-slate-50">
      <AppHeader />
      <main className="mx-auto max-w-4xl px-4 py-8">
        <nav aria-label="Breadcrumb" className="text-sm text-slate-500">
          <Link to="/mytracks/hashtag" className="hover:text-slate-800 hover:underline">
            Trackers
          </Link>
          <span aria-hidden="true"> / </span>
          <span className="text-slate-700">New tracker</span>
        </nav>
        <h1 className="mt-2 text-2xl font-semibold text-slate-900">Add Tracker</h1>
        <p className="mt-1 text-sm text-slate-500">
          {social
            ? 'Listen to conversations about a brand, topic or campaign across social platforms and the web.'
            : 'Track hashtags and keywords across social platforms and the web in real time.'}
        </p>
        {demo && (
          <Alert tone="info" className="mt-4">
            This is a demo: the search form is read-only.
          </Alert>
        )}
        <form onSubmit={save} noValidate className="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          {generalError && <Alert className="mb-6">{generalError}</Alert>}
          {flow.loading && flow.step > 0 ? <PreviewSteps step={flow.step} /> : null}
          <TrackerForm
            values={values}
            onChange={setValues}
            limits={limitsOf(me.data)}
            access={accessOf(me.data)}
            readOnly={demo}
            attempts={attempts}
            serverErrors={server}
          />
          <div className="mt-8 flex items-center justify-end gap-3 border-t border-slate-200 pt-5">
            <Link
              to="/mytracks/hashtag"
              className="inline-flex h-9 items-center rounded-md px-4 text-sm font-medium text-slate-600 hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
            >
              Cancel
            </Link>
            {!demo && (
              <Button type="submit" loading={flow.loading}>
                Save
              </Button>
            )}
          </div>
        </form>
      </main>
    </div>
  );
}
