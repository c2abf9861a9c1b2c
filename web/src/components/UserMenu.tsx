import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useNavigate } from 'react-router';
import { useLogout } from '../api/queries/auth';
import { useMe } from '../api/queries/me';

/** The signed-in user's menu with Sign out; renders nothing while signed out. */
export function UserMenu() {
  const me = useMe();
  const logout = useLogout();
  const navigate = useNavigate();
  if (!me.data?.isLoggedIn) return null;
  const name = me.data.name || me.data.email || 'Account';
  const initial = name.trim().charAt(0).toUpperCase() || '?';

  const signOut = () => {
    logout.mutate(undefined, {
      onSettled: () => navigate('/login', { replace: true }),
    });
  };

  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger
        aria-label={`Account menu for ${name}`}
        className="inline-flex items-center gap-2 rounded-md px-2 py-1 text-sm text-slate-700 hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
      >
        <span aria-hidden="true" className="flex h-7 w-7 items-center justify-center rounded-full bg-brand-600 text-xs font-semibold text-white">
          {initial}
        </span>
        <span className="hidden max-w-40 truncate sm:inline">{name}</span>
        <svg viewBox="0 0 20 20" className="h-4 w-4 text-slate-400" fill="currentColor" aria-hidden="true">
          <path d="M5.2 7.2a.75.75 0 0 1 1.06 0L10 10.94l3.74-3.74a.75.75 0 1 1 1.06 1.06l-4.27 4.27a.75.75 0 0 1-1.06 0L5.2 8.26a.75.75 0 0 1 0-1.06Z" />
        </svg>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" sideOffset={6} className="z-50 min-w-52 rounded-md border border-slate-200 bg-white p-1 text-sm shadow-lg">
          <div className="px-3 py-2">
            <p className="truncate font-medium text-slate-900">{me.data.name}</p>
            <p className="truncate text-xs text-slate-500">{me.data.email}</p>
            {me.data.isAdmin && <p className="mt-1 text-xs font-medium text-brand-700">Instance administrator</p>}
          </div>
          <DropdownMenu.Separator className="my-1 h-px bg-slate-100" />
          <DropdownMenu.Item
            onSelect={() => navigate('/mytracks/hashtag')}
            className="cursor-pointer rounded px-3 py-2 text-slate-700 outline-none data-[highlighted]:bg-slate-100"
          >
            My trackers
          </DropdownMenu.Item>
          {me.data.isAdmin && (
            <DropdownMenu.Item
              onSelect={() => navigate('/settings/connectors')}
              className="cursor-pointer rounded px-3 py-2 text-slate-700 outline-none data-[highlighted]:bg-slate-100"
            >
              Connectors
            </DropdownMenu.Item>
          )}
          {me.data.isAdmin && (
            <DropdownMenu.Item
              onSelect={() => navigate('/settings/integrations')}
              className="cursor-pointer rounded px-3 py-2 text-slate-700 outline-none data-[highlighted]:bg-slate-100"
            >
              Integrations
            </DropdownMenu.Item>
          )}
          {me.data.isAdmin && (
            <DropdownMenu.Item
              onSelect={() => navigate('/admin/accounts')}
              className="cursor-pointer rounded px-3 py-2 text-slate-700 outline-none data-[highlighted]:bg-slate-100"
            >
              Accounts
            </DropdownMenu.Item>
          )}
          {me.data.isAdmin && (
            <DropdownMenu.Item
              onSelect={() => navigate('/admin/audit')}
              className="cursor-pointer rounded px-3 py-2 text-slate-700 outline-none data-[highlighted]:bg-slate-100"
            >
              Audit log
            </DropdownMenu.Item>
          )}
          <DropdownMenu.Item
            onSelect={signOut}
            className="cursor-pointer rounded px-3 py-2 text-slate-700 outline-none data-[highlighted]:bg-slate-100"
          >
            Sign out
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
