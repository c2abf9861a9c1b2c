import { Link } from 'react-router';
import { useMe } from '../../api/queries/me';
import type { Me } from '../../api/types';
import { AppHeader } from '../../components/AppHeader';
import { FeatureMark } from '../../components/FeatureMark';
import { Logo } from '../../components/Logo';
import { planIncludes, trialLabel } from '../plans/plan-text';

const COPY = {
  pricing: {
    title: 'Plans and limits',
    body: [
      'Hark is self-hosted software: there is nothing to buy here. Plans and limits on this instance — how many searches and excluded terms a tracker may use, which platforms are available and how much data is kept — are set by the instance administrator.',
      'Each account has a plan, and the plan decides what it may use: XLS export, the link-sharing options of a shared dashboard and the media wall. The administrator chooses every account’s plan, trial and limits on the Accounts page.',
      'If you need a higher limit, a feature your plan does not include or another platform enabled, ask the administrator of this instance.',
    ],
  },
  contact: {
    title: 'Contact us',
    body: [
      'This Hark instance is run by its own administrator. Questions about accounts, trial access, plans, limits or locked platforms go to them.',
      'Administrators can change each account’s limits and enabled platforms from the instance settings.',
    ],
  },
} as const;

/** /pricing, /pricing-plans and /contact-us on a self-hosted instance. */
export function StaticInfoPage({ kind }: { kind: 'pricing' | 'contact' }) {
  const me = useMe();
  const copy = COPY[kind];
  const signedIn = me.data?.isLoggedIn ?? false;
  return (
    <div className="min-h-screen bg-slate-50">
      {signedIn ? (
        <AppHeader />
      ) : (
        <header className="border-b border-slate-200 bg-white">
          <div className="mx-auto flex h-14 max-w-6xl items-center px-4">
            <Link to="/" className="rounded focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500">
              <Logo />
            </Link>
          </div>
        </header>
      )}
      <main className="mx-auto max-w-2xl px-4 py-12">
        <div className="rounded-lg border border-slate-200 bg-white p-8 shadow-sm">
          <h1 className="text-2xl font-semibold text-slate-900">{copy.title}</h1>
          {copy.body.map((p) => (
            <p key={p} className="mt-4 text-sm leading-6 text-slate-600">
              {p}
            </p>
          ))}
          {kind === 'pricing' && signedIn && me.data ? <YourPlan me={me.data} /> : null}
          {kind === 'contact' && signedIn && me.data?.isAdmin && (
            <p className="mt-4 rounded-md bg-brand-50 px-3 py-2 text-sm text-slate-700">
              You are an administrator of this instance: set accounts’ plans on the{' '}
              <Link to="/admin/accounts" className="font-medium text-brand-700 hover:underline">
                Accounts page
              </Link>
              .
            </p>
          )}
          <Link
            to={signedIn ? '/mytracks/hashtag' : '/'}
            className="mt-8 inline-flex h-9 items-center rounded-md bg-brand-600 px-4 text-sm font-medium text-white hover:bg-brand-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2"
          >
            {signedIn ? 'Back to your trackers' : 'Back to Hark'}
          </Link>
        </div>
      </main>
    </div>
  );
}

/** The signed-in account's plan: what it includes, its trial and its limits. */
function YourPlan({ me }: { me: Me }) {
  const trial = trialLabel({ trial: me.trial, trialExpires: me.trialExpires, trialExpired: me.trialExpired });
  return (
    <section aria-labelledby="your-plan" className="mt-6 rounded-md border border-slate-200 bg-slate-50 px-4 py-4">
      <h2 id="your-plan" className="text-sm font-semibold text-slate-900">
        Your account
      </h2>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-6 gap-y-1 text-sm">
        <dt className="text-slate-500">Plan</dt>
        <dd className="text-slate-800">{me.isAdmin ? `${me.plan} · instance administrator` : me.plan}</dd>
        <dt className="text-slate-500">Trial</dt>
        <dd className={me.trialExpired ? 'font-medium text-amber-700' : 'text-slate-800'}>{trial === '—' ? 'Not on a trial' : trial}</dd>
        <dt className="text-slate-500">Limits per tracker</dt>
        <dd className="text-slate-800">
          {me.maxSearches} searches · {me.maxIgnored} ignored terms
        </dd>
      </dl>
      <ul className="mt-3 flex flex-wrap gap-x-5 gap-y-1 text-sm" aria-label="What your plan includes">
        {planIncludes(me.features).map((f) => (
          <li key={f.label} className={`inline-flex items-center gap-1.5 ${f.included ? 'text-slate-800' : 'text-slate-400'}`}>
            <FeatureMark included={f.included} />
            {f.label}
            <span className="sr-only">{f.included ? '(included)' : '(not included)'}</span>
          </li>
        ))}
      </ul>
      {me.isAdmin ? (
        <p className="mt-3 text-xs text-slate-600">
          As an instance administrator you have every feature.{' '}
          <Link to="/admin/accounts" className="font-medium text-brand-700 hover:underline">
            Set accounts’ plans
          </Link>
        </p>
      ) : null}
    </section>
  );
}
