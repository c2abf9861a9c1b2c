// The notice that the account's trial has ended: shown on the first signed-in page of a browser
// session (not again until the session ends), with the way to the pricing and contact pages.
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useMe } from '../../api/queries/me';
import { Modal } from '../../components/Modal';
import { TRIAL_DAYS } from './plan-text';

// The notice's words are the specification's (tracker-lifecycle.md, trialExpired); the number is
// the trial's length on this instance (GET /me's trialDays, from the plan catalogue).
export function trialExpiredTitle(days: number = TRIAL_DAYS): string {
  return `Your ${days}-Day Trial has expired`;
}
/** The title with the default trial length (14 days), while /me has not loaded. */
export const TRIAL_EXPIRED_TITLE = trialExpiredTitle();
export const TRIAL_EXPIRED_TEXT = 'Upgrade now to access your trackers.';
const NOTICE_KEY = 'hark.trialExpiredNotice';
/**
 * The pages the notice points to do not open it themselves, nor does the unsubscribe page (a
 * mail's link, whose answer the notice would cover).
 */
const INFO_PAGES = ['/pricing', '/pricing-plans', '/contact-us', '/unsubscribe'];

/** sessionStorage may be unavailable (storage blocked): then the notice shows once per page load. */
function shownThisSession(key: string): boolean {
  try {
    return window.sessionStorage.getItem(key) === '1';
  } catch {
    return false;
  }
}

function markShown(key: string) {
  try {
    window.sessionStorage.setItem(key, '1');
  } catch {
    // Nothing to keep it in: the component's own state still stops a second showing.
  }
}

export function TrialExpiredModal() {
  const me = useMe();
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const [shown, setShown] = useState(false);
  const seePlans = useRef<HTMLAnchorElement>(null);
  const key = `${NOTICE_KEY}.${me.data?.id ?? ''}`;
  const days = me.data?.trialDays && me.data.trialDays > 0 ? me.data.trialDays : TRIAL_DAYS;
  const due = !!me.data?.isLoggedIn && me.data.trialExpired && !INFO_PAGES.includes(pathname);

  useEffect(() => {
    if (!due || shown || shownThisSession(key)) return;
    markShown(key);
    setShown(true);
    setOpen(true);
  }, [due, shown, key]);

  const linkClass =
    'inline-flex h-9 items-center rounded-md px-4 text-sm font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2';
  return (
    <Modal open={open} onOpenChange={setOpen} title={trialExpiredTitle(days)} name="trialExpired" initialFocus={seePlans}>
      <p className="text-sm font-medium leading-6 text-slate-800">{TRIAL_EXPIRED_TEXT}</p>
      <p className="mt-1 text-sm leading-6 text-slate-600">
        On this server the administrator sets each account's plan and what it includes: ask them for one.
      </p>
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <Link to="/contact-us" onClick={() => setOpen(false)} className={`${linkClass} border border-slate-300 bg-white text-slate-700 hover:bg-slate-50`}>
          Contact us
        </Link>
        <Link ref={seePlans} to="/pricing" onClick={() => setOpen(false)} className={`${linkClass} bg-brand-600 text-white hover:bg-brand-700`}>
          See plans
        </Link>
      </div>
    </Modal>
  );
}
