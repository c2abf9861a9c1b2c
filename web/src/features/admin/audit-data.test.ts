import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../api/queries/admin';
import { actionLabel, describeEntry, flattenPages, shareChange } from './audit-data';

function entry(action: string, detail: Record<string, unknown>): AuditEntry {
  return { id: 1, action, detail, actor: 'ann@example.org', trackerHash: 'abc', trackerTitle: 'Coffee', createdAt: 0 };
}

describe('audit entries in words', () => {
  it('says what each kind of change was', () => {
    expect(describeEntry(entry('member_rank_changed', { member: 'bo@example.org', from: 'viewer', to: 'editor' }))).toBe('bo@example.org: viewer → editor');
    expect(describeEntry(entry('member_removed', { member: 'cy@example.org', from: 'administrator' }))).toBe('cy@example.org (administrator) taken off the team');
    expect(describeEntry(entry('owner_changed', { from: 'ann@example.org', to: 'bo@example.org' }))).toBe('From ann@example.org to bo@example.org');
    expect(describeEntry(entry('posts_deleted', { count: 2, posts: ['twitter;1'] }))).toBe('2 posts hidden from the tracker (bulk delete)');
    expect(describeEntry(entry('posts_restored', { count: 1 }))).toBe('1 post brought back (undo)');
    expect(describeEntry(entry('share_revoked', {}))).toMatch(/stopped working/);
    expect(describeEntry(entry('tracker_deleted', { friendly: 'coffee' }))).toMatch(/deleted/);
    expect(describeEntry(entry('member_added', { member: 'eve@example.org', to: 'editor', invitation: true }))).toBe('eve@example.org joined as editor (accepted an invitation)');
    expect(describeEntry(entry('member_added', { member: 'dee@example.org', to: 'viewer' }))).toBe('dee@example.org joined as viewer');
    expect(describeEntry(entry('admin_granted', { member: 'dee@example.org' }))).toBe('dee@example.org can now administer this server');
    expect(describeEntry(entry('admin_revoked', { member: 'dee@example.org' }))).toBe('dee@example.org no longer administers this server');
    expect(actionLabel('admin_granted')).toBe('Administrator added');
    expect(actionLabel('moderation_link_rotated')).toBe('Moderation link replaced');
    expect(describeEntry(entry('moderation_link_rotated', {}))).toMatch(/moderation link/);
    expect(actionLabel('posts_deleted')).toBe('Posts deleted');
    expect(actionLabel('something_new')).toBe('something_new');
    expect(describeEntry(entry('something_new', {}))).toBe('');
  });

  it('lists a share link change setting by setting', () => {
    const changes = [
      { setting: 'editDateRange', from: false, to: true },
      { setting: 'exportReports', from: true, to: false },
      { setting: 'customUrl', from: null, to: 'my-coffee' },
    ];
    expect(describeEntry(entry('share_changed', { changes }))).toBe('Edit date range on, Export reports off, Custom URL set to “my-coffee”');
    expect(shareChange({ setting: 'customUrl', from: 'x', to: null })).toBe('Custom URL removed');
    expect(describeEntry(entry('share_changed', {}))).toBe('Settings saved');
  });

  it('survives a detail it does not expect', () => {
    expect(describeEntry(entry('posts_deleted', { count: 'many' }))).toBe('0 posts hidden from the tracker (bulk delete)');
    expect(describeEntry({ action: 'member_removed', detail: null as unknown as Record<string, unknown> })).toBe('A member taken off the team');
  });

  it('joins the loaded pages newest first', () => {
    const a = entry('share_revoked', {});
    const b = { ...a, id: 0 };
    expect(flattenPages([{ entries: [a] }, { entries: [b] }]).map((e) => e.id)).toEqual([1, 0]);
    expect(flattenPages(undefined)).toEqual([]);
  });
});
