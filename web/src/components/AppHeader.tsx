import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Logo } from './Logo';
import { UserMenu } from './UserMenu';

/** The top bar of signed-in pages: logo, tracker list link, optional actions and the user menu. */
export function AppHeader({ children }: { children?: ReactNode }) {
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-14 max-w-6xl items-center gap-6 px-4">
        <Link to="/mytracks/hashtag" className="rounded focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500">
          <Logo />
        </Link>
        <nav aria-label="Main" className="flex items-center gap-1 text-sm">
          <Link
            to="/mytracks/hashtag"
            className="rounded-md px-2 py-1 text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
          >
            Trackers
          </Link>
        </nav>
        <div className="ml-auto flex items-center gap-2">
          {children}
          <UserMenu />
        </div>
      </div>
    </header>
  );
}
