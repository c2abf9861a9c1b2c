import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuditEntry } from '../../api/queries/admin';
import { mockApi, renderRoute, type ApiCall } from '../../lib/test-utils';
import { meFixture } from '../trackers/fixtures';
import { NOT_ADMIN_TEXT } from './AdminFrame';
import { AuditLogPage, EMPTY_TITLE } from './AuditLogPage';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const AT = Date.UTC(2026, 10, 27, 9, 30);

function entry(id: number, over: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id, trackerHash: 'h1', trackerTitle: 'Coffee', actor: 'ada@example.com', action: 'share_revoked', detail: {}, createdAt: AT, ...over,
  };
}

type Answer = { status?: number; body?: unknown };

function setup(audit: (c: ApiCall) => Answer, isAdmin = true) {
  const calls = mockApi({ 'GET /me': () => ({ body: meFixture({ id: 1, isAdmin }) }), 'GET /admin/audit': audit });
  renderRoute(<AuditLogPage />, { path: '/admin/audit', url: '/admin/audit' });
  return calls;
}

describe('Audit log page', () => {
  it('lists the entries newest first in words, linking trackers that still exist', async () => {
    setup(() => ({
      body: {
        entries: [
          entry(3, { action: 'tracker_deleted', trackerHash: 'gone', trackerTitle: 'Tea' }),
          entry(2, { action: 'member_rank_changed', detail: { member: 'bo@example.com', from: 'viewer', to: 'editor' } }),
          entry(1, { action: 'posts_deleted', detail: { count: 3 }, trackerHash: 'gone', trackerTitle: 'Tea' }),
          entry(0, { action: 'admin_granted', detail: { member: 'bo@example.com' }, trackerHash: null, trackerTitle: '' }),
        ],
        next: null,
      },
    }));
    const rows = await screen.findAllByTestId('audit-row');
    expect(rows).toHaveLength(4);
    expect(within(rows[0]).getByTestId('audit-action')).toHaveTextContent('Tracker deleted');
    expect(within(rows[1]).getByTestId('audit-detail')).toHaveTextContent('bo@example.com: viewer → editor');
    expect(within(rows[2]).getByTestId('audit-detail')).toHaveTextContent('3 posts hidden from the tracker (bulk delete)');
    expect(within(rows[1]).getByRole('link', { name: 'Coffee' })).toHaveAttribute('href', '/hashtag-tracking/dashboard/h1');
    expect(within(rows[0]).queryByRole('link')).toBeNull();
    expect(within(rows[2]).queryByRole('link')).toBeNull();
    expect(within(rows[3]).getByText('This server')).toBeInTheDocument();
    expect(within(rows[3]).getByTestId('audit-detail')).toHaveTextContent('bo@example.com can now administer this server');
    expect(screen.getByTestId('audit-count')).toHaveTextContent('4 entries');
    expect(screen.queryByRole('button', { name: 'Load older entries' })).toBeNull();
  });

  it('loads older entries from where the page ended', async () => {
    const calls = setup((c) =>
      c.query.get('before') === '5'
        ? { body: { entries: [entry(4, { trackerTitle: 'Older' })], next: null } }
        : { body: { entries: [entry(6), entry(5)], next: 5 } },
    );
    expect(await screen.findAllByTestId('audit-row')).toHaveLength(2);
    expect(screen.getByTestId('audit-count')).toHaveTextContent('2 entries shown');
    fireEvent.click(screen.getByRole('button', { name: 'Load older entries' }));
    await waitFor(() => expect(screen.getAllByTestId('audit-row')).toHaveLength(3));
    expect(screen.getByText('Older')).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/admin/audit').map((c) => c.query.get('before'))).toEqual([null, '5']);
    expect(screen.queryByRole('button', { name: 'Load older entries' })).toBeNull();
  });

  it('says when nothing is recorded, and shows a failed load with Try again', async () => {
    let n = 0;
    setup(() => (++n === 1 ? { status: 500, body: { error: { code: 'internal', message: 'Sorry, an error occurred please try again.' } } } : { body: { entries: [], next: null } }));
    fireEvent.click(await screen.findByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(EMPTY_TITLE)).toBeInTheDocument();
  });

  it('is for instance administrators only', async () => {
    const calls = setup(() => ({ body: { entries: [], next: null } }), false);
    expect(await screen.findByText(NOT_ADMIN_TEXT)).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/admin/audit')).toBe(false);
  });
});
