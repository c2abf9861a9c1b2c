import { Link } from 'react-router';
import { useMe } from '../../api/queries/me';
import { AppHeader } from '../../components/AppHeader';
import { Logo } from '../../components/Logo';

const COPY = {
  pricing: {
    title: 'Plans and limits',
    body: [
      'Hark is self-hosted software: there is nothing to buy here. Plans and limits on this instance — how many searches and excluded terms a tracker may use, which platforms are available and how much data is kept — are set by the instance administrator.',
      'If you need a higher limit or another platform enabled, ask the administrator of this instance.',
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
          {kind === 'contact' && signedIn && me.data?.isAdmin && (
            <p className="mt-4 rounded-md bg-brand-50 px-3 py-2 text-sm text-slate-700">You are an administrator of this instance.</p>
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
