import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { mockApi, renderRoute } from '../../lib/test-utils';
import { AuditSection } from './AuditSection';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

it("lists the tracker's own entries without a tracker column", async () => {
  const calls = mockApi({
    'GET /trackers/h1/audit': () => ({
      body: {
        entries: [
          { id: 2, trackerHash: 'h1', trackerTitle: 'Coffee', actor: 'ada@example.com', action: 'owner_changed', detail: { from: 'ada@example.com', to: 'bo@example.com' }, createdAt: 0 },
        ],
        next: null,
      },
    }),
  });
  renderRoute(<AuditSection hash="h1" />, { path: '/edit/:hash', url: '/edit/h1' });
  const section = await screen.findByRole('region', { name: 'Audit log' });
  const row = await within(section).findByTestId('audit-row');
  expect(within(row).getByTestId('audit-detail')).toHaveTextContent('From ada@example.com to bo@example.com');
  expect(within(section).queryByRole('columnheader', { name: 'Tracker' })).toBeNull();
  expect(within(section).queryByRole('link')).toBeNull();
  expect(calls.filter((c) => c.path === '/trackers/h1/audit')).toHaveLength(1);
});

it('says when nothing is recorded yet', async () => {
  mockApi({ 'GET /trackers/h1/audit': () => ({ body: { entries: [], next: null } }) });
  renderRoute(<AuditSection hash="h1" />, { path: '/edit/:hash', url: '/edit/h1' });
  expect(await screen.findByRole('heading', { level: 3, name: 'No changes recorded yet' })).toBeInTheDocument();
});
