// The frame of the instance administrator's pages: the app header, the page's width, and what a
// signed-in account that is not an administrator sees instead.
import { Link } from 'react-router';
import { Alert } from '../../components/Alert';
import { AppHeader } from '../../components/AppHeader';

export const NOT_ADMIN_TEXT = 'Only an instance administrator can see this page.';

export function AdminFrame({ children }: { children: React.ReactNode }) {
  return (
    <div className="min-h-screen bg-slate-50">
      <AppHeader />
      <main className="mx-auto max-w-6xl px-4 py-8">{children}</main>
    </div>
  );
}

export function NotAdmin({ title }: { title: string }) {
  return (
    <AdminFrame>
      <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
      <Alert className="mt-6">{NOT_ADMIN_TEXT}</Alert>
      <Link to="/mytracks/hashtag" className="mt-4 inline-block text-sm font-medium text-brand-700 hover:underline">
        Back to the tracker list
      </Link>
    </AdminFrame>
  );
}
