// A tracker whose owner's trial has ended: the server answers every read of it with 403
// `trial_expired` (the owner is told to upgrade; members and share-link visitors that the tracker
// is locked). The page says so in place of the tracker, and loads none of its panels.
import { useId } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../api/client';
import { IconLock } from '../../components/icons';

export const TRACKER_LOCKED_TITLE = 'This tracker is locked';
/** The server's text for anybody but the owner, should an answer come without one. */
const LOCKED_FALLBACK = "This tracker is locked: its owner's trial has expired.";

/** The tracker could not be read because its owner's trial has ended. */
export function isTrialExpired(err: unknown): err is ApiError {
  return err instanceof ApiError && err.code === 'trial_expired';
}

const linkBase =
  'inline-flex h-9 items-center rounded-md px-4 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600';

/** The locked tracker in the app's frame: why, and the ways to a plan. */
export function TrackerLocked({ message, signedIn }: { message: string; signedIn: boolean }) {
  const headingId = useId();
  return (
    <main id="main" className="flex min-h-[calc(100vh-3.5rem)] items-center justify-center p-6">
      <section
        aria-labelledby={headingId}
        data-testid="tracker-locked"
        className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-8 text-center shadow-sm"
      >
        <div className="mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-amber-50 text-amber-600 ring-1 ring-amber-200">
          <IconLock size={22} />
        </div>
        <h1 id={headingId} className="mt-4 text-xl font-semibold text-slate-900">
          {TRACKER_LOCKED_TITLE}
        </h1>
        <p className="mt-2 text-sm leading-6 text-slate-600" data-testid="tracker-locked-message">
          {message || LOCKED_FALLBACK}
        </p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <Link to="/pricing" className={`${linkBase} bg-brand-600 text-white hover:bg-brand-700`}>
            See plans
          </Link>
          <Link to="/contact-us" className={`${linkBase} border border-slate-300 bg-white text-slate-700 hover:bg-slate-50`}>
            Contact us
          </Link>
        </div>
        {signedIn ? (
          <Link
            to="/mytracks/hashtag"
            className="mt-5 inline-block rounded text-sm font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
          >
            Back to My Trackers
          </Link>
        ) : null}
      </section>
    </main>
  );
}

/** The same inside an embed (framed in another site): the server's reason alone, no way out of the frame. */
export function EmbedLocked({ message }: { message: string }) {
  return (
    <div className="flex min-h-screen items-center justify-center p-4">
      <div
        role="alert"
        data-testid="tracker-locked"
        className="flex max-w-md items-start gap-3 rounded-lg border border-slate-200 bg-white px-4 py-3 text-sm text-slate-600 shadow-sm"
      >
        <IconLock size={16} className="mt-0.5 shrink-0 text-amber-600" />
        <p>{message || LOCKED_FALLBACK}</p>
      </div>
    </div>
  );
}
