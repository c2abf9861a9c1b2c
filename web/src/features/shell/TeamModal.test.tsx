import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Member, Team } from '../../api/queries/team';
import { mockApi, renderRoute, type ApiCall } from '../../lib/test-utils';
import { TeamModal } from './TeamModal';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
beforeEach(() => {
  document.cookie = 'hark_csrf=tok123';
});

const HASH = 'abc123';
const base = `/trackers/${HASH}`;

const owner: Member = { userId: 1, email: 'ada@example.com', name: 'Ada', permission: 4 };
const bob: Member = { userId: 2, email: 'bob@example.com', name: 'Bob', permission: 1 };
const cy: Member = { userId: 3, email: 'cy@example.com', name: '', permission: 3 };

function team(over: Partial<Team> = {}): Team {
  return {
    owner,
    members: [cy, bob],
    invitations: [{ id: 7, email: 'dee@example.com', permission: 2, createdAt: Date.UTC(2026, 5, 1), expiresAt: Date.UTC(2026, 5, 15, 12) }],
    canTransfer: true,
    ...over,
  };
}

type Answer = { status?: number; body?: unknown };
type Routes = Record<string, (c: ApiCall) => Answer | Promise<Answer>>;

function setup(routes: Routes = {}, meId: number | null = 1) {
  const calls = mockApi({ [`GET ${base}/members`]: () => ({ body: team() }), ...routes });
  renderRoute(<TeamModal open onOpenChange={() => undefined} hash={HASH} meId={meId} />, { path: '/', url: '/' });
  return calls;
}

const dialog = async () => within(await screen.findByRole('dialog', { name: 'Team' }));
const err = (status: number, code: string, message: string): Answer => ({ status, body: { error: { code, message } } });

describe('Team dialog', () => {
  it('lists the owner, the members with their rank and the pending invitations', async () => {
    setup();
    const d = await dialog();
    expect(d.getByText('Loading the team…')).toBeInTheDocument();
    const ownerRow = await d.findByTestId('team-owner');
    expect(ownerRow).toHaveTextContent('Ada');
    expect(ownerRow).toHaveTextContent('(you)');
    expect(within(ownerRow).getByText('Owner')).toBeInTheDocument();
    expect(within(ownerRow).queryByRole('combobox')).toBeNull();
    expect(d.getByLabelText('Rank of Bob')).toHaveValue('1');
    // A member without a name is shown by address.
    expect(d.getByLabelText('Rank of cy@example.com')).toHaveValue('3');
    const inv = d.getByTestId('team-invitation');
    expect(inv).toHaveTextContent('dee@example.com');
    expect(inv).toHaveTextContent('Editor · link expires Jun 15, 2026');
    expect(d.getByRole('button', { name: 'Withdraw the invitation for dee@example.com' })).toBeInTheDocument();
  });

  it('says when there are no members yet and shows a failed load with Try again', async () => {
    let n = 0;
    setup({ [`GET ${base}/members`]: () => (++n === 1 ? err(500, 'internal', 'Sorry, an error occurred please try again.') : { body: team({ members: [], invitations: [] }) }) });
    const d = await dialog();
    expect(await d.findByRole('alert')).toHaveTextContent('Sorry, an error occurred please try again.');
    fireEvent.click(d.getByRole('button', { name: 'Try again' }));
    expect(await d.findByText('No members yet')).toBeInTheDocument();
    expect(d.queryByText('Pending invitations')).toBeNull();
  });

  it('invites an address without an account and shows its sign-up link once, with Copy', async () => {
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const calls = setup({
      [`POST ${base}/members`]: () => ({
        status: 201,
        body: { member: null, invitation: { id: 8, email: 'eve@example.com', permission: 2, createdAt: 1, expiresAt: 2 }, link: '/join/tok999' },
      }),
    });
    const d = await dialog();
    const email = await d.findByLabelText('Email address');
    expect(d.getByLabelText('Rank')).toHaveValue('1');
    fireEvent.change(email, { target: { value: ' eve@example.com ' } });
    fireEvent.change(d.getByLabelText('Rank'), { target: { value: '2' } });
    fireEvent.click(d.getByRole('button', { name: 'Invite' }));
    const link = await d.findByLabelText('Sign-up link');
    expect(link).toHaveValue(`${window.location.origin}/join/tok999`);
    expect(d.getByTestId('invitation-link')).toHaveTextContent('The link is shown once');
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ email: 'eve@example.com', permission: 2 });
    expect(calls.find((c) => c.method === 'POST')!.headers.get('X-CSRF-Token')).toBe('tok123');
    expect(email).toHaveValue('');
    // The team is read again: the new invitation is listed.
    await waitFor(() => expect(calls.filter((c) => c.method === 'GET').length).toBe(2));
    fireEvent.click(d.getByRole('button', { name: 'Copy' }));
    expect(await d.findByRole('button', { name: 'Copied!' })).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/join/tok999`);
  });

  it('says when the server mailed the link, and when mailing failed', async () => {
    let n = 0;
    const invited = { member: null, invitation: { id: 8, email: 'eve@example.com', permission: 1, createdAt: 1, expiresAt: 2 }, link: '/join/tok1' };
    setup({
      [`POST ${base}/members`]: () =>
        ++n === 1 ? { status: 201, body: { ...invited, emailed: true, mailError: null } } : { status: 201, body: { ...invited, emailed: false, mailError: 'connection refused' } },
    });
    const d = await dialog();
    fireEvent.change(await d.findByLabelText('Email address'), { target: { value: 'eve@example.com' } });
    fireEvent.click(d.getByRole('button', { name: 'Invite' }));
    expect(await d.findByText(/We e-mailed the sign-up link to/)).toHaveTextContent('We e-mailed the sign-up link to eve@example.com.');
    expect(d.getByText(/The link is shown here only once/)).toBeInTheDocument();
    expect(d.queryByText(/copy it now/)).toBeNull();
    expect(d.getByLabelText('Sign-up link')).toHaveValue(`${window.location.origin}/join/tok1`);
    fireEvent.change(d.getByLabelText('Email address'), { target: { value: 'eve@example.com' } });
    fireEvent.click(d.getByRole('button', { name: 'Invite' }));
    expect(await d.findByText(/could not be sent/)).toHaveTextContent('The e-mail could not be sent (connection refused). Copy the link and send it yourself.');
    expect(d.getByText(/has no account yet/)).toBeInTheDocument();
  });

  it('an address with an account joins at once', async () => {
    setup({
      [`POST ${base}/members`]: () => ({ status: 201, body: { member: { userId: 9, email: 'fay@example.com', name: 'Fay', permission: 1 }, invitation: null, link: null } }),
    });
    const d = await dialog();
    fireEvent.change(await d.findByLabelText('Email address'), { target: { value: 'fay@example.com' } });
    fireEvent.click(d.getByRole('button', { name: 'Invite' }));
    expect(await d.findByText('Fay has an account and joined the team as Viewer.')).toBeInTheDocument();
    expect(d.queryByLabelText('Sign-up link')).toBeNull();
  });

  it('shows refusals under the address and checks it before sending', async () => {
    const calls = setup({ [`POST ${base}/members`]: () => err(409, 'conflict', 'This account is already on the team; change its rank instead.') });
    const d = await dialog();
    const email = await d.findByLabelText('Email address');
    fireEvent.click(d.getByRole('button', { name: 'Invite' }));
    expect(await d.findByRole('alert')).toHaveTextContent('Enter a valid e-mail address.');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(email, { target: { value: 'bob@example.com' } });
    fireEvent.click(d.getByRole('button', { name: 'Invite' }));
    expect(await d.findByRole('alert')).toHaveTextContent('This account is already on the team; change its rank instead.');
    // Typing again clears the message.
    fireEvent.change(email, { target: { value: 'bob@example.co' } });
    expect(d.queryByRole('alert')).toBeNull();
  });

  it('saves a rank change at once and puts it back when refused', async () => {
    let refuse = false;
    const calls = setup({
      [`PATCH ${base}/members/2`]: (c) =>
        refuse ? err(403, 'forbidden', "Only the tracker's owner or an administrator can do this.") : { body: { ...bob, permission: (c.body as { permission: number }).permission } },
    });
    const d = await dialog();
    const rank = await d.findByLabelText('Rank of Bob');
    fireEvent.change(rank, { target: { value: '2' } });
    expect(rank).toHaveValue('2');
    await waitFor(() => expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ permission: 2 });
    refuse = true;
    fireEvent.change(rank, { target: { value: '3' } });
    expect(rank).toHaveValue('3');
    expect(await d.findByRole('alert')).toHaveTextContent("The rank was not changed: Only the tracker's owner or an administrator can do this.");
    await waitFor(() => expect(rank).toHaveValue('2'));
  });

  it('removes a member after an inline confirm; Cancel keeps them', async () => {
    const calls = setup({ [`DELETE ${base}/members/2`]: () => ({ status: 204 }) });
    const d = await dialog();
    fireEvent.click(await d.findByRole('button', { name: 'Remove Bob' }));
    let confirm = d.getByRole('group', { name: 'Remove Bob' });
    expect(confirm).toHaveTextContent('Remove Bob? They lose access to this tracker.');
    await waitFor(() => expect(within(confirm).getByRole('button', { name: 'Cancel' })).toHaveFocus());
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(d.queryByRole('group', { name: 'Remove Bob' })).toBeNull();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(d.getByRole('button', { name: 'Remove Bob' }));
    confirm = d.getByRole('group', { name: 'Remove Bob' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(d.queryByLabelText('Rank of Bob')).toBeNull());
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`${base}/members/2`]);
  });

  it('Escape cancels a confirm step and puts the focus back on its button; the dialog stays open until the next Escape', async () => {
    const onOpenChange = vi.fn();
    const calls = mockApi({ [`GET ${base}/members`]: () => ({ body: team() }) });
    renderRoute(<TeamModal open onOpenChange={onOpenChange} hash={HASH} meId={1} />, { path: '/', url: '/' });
    const d = await dialog();
    const escape = () => fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape', code: 'Escape' });

    // Remove: the step takes the focus, says what it will do, and Escape cancels it.
    const remove = await d.findByRole('button', { name: 'Remove Bob' });
    fireEvent.click(remove);
    const confirm = d.getByRole('group', { name: 'Remove Bob' });
    expect(confirm).toHaveAccessibleDescription('Remove Bob? They lose access to this tracker.');
    await waitFor(() => expect(within(confirm).getByRole('button', { name: 'Cancel' })).toHaveFocus());
    escape();
    expect(d.queryByRole('group', { name: 'Remove Bob' })).toBeNull();
    await waitFor(() => expect(remove).toHaveFocus());
    expect(onOpenChange).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Team' })).toBeInTheDocument();
    expect(d.getByLabelText('Rank of Bob')).toBeInTheDocument();

    // Make owner: the same, from the keyboard alone (Enter on the focused button opens the step).
    const makeOwner = d.getByRole('button', { name: 'Make owner: Bob' });
    makeOwner.focus();
    fireEvent.click(makeOwner);
    const handOver = d.getByRole('group', { name: 'Make Bob the owner' });
    await waitFor(() => expect(within(handOver).getByRole('button', { name: 'Cancel' })).toHaveFocus());
    escape();
    expect(d.queryByRole('group', { name: 'Make Bob the owner' })).toBeNull();
    await waitFor(() => expect(makeOwner).toHaveFocus());
    expect(onOpenChange).not.toHaveBeenCalled();

    // Two steps open: Escape cancels the one holding the focus first.
    fireEvent.click(d.getByRole('button', { name: 'Remove Bob' }));
    fireEvent.click(d.getByRole('button', { name: 'Remove cy@example.com' }));
    const cyStep = d.getByRole('group', { name: 'Remove cy@example.com' });
    await waitFor(() => expect(within(cyStep).getByRole('button', { name: 'Cancel' })).toHaveFocus());
    within(d.getByRole('group', { name: 'Remove Bob' })).getByRole('button', { name: 'Cancel' }).focus();
    escape();
    expect(d.queryByRole('group', { name: 'Remove Bob' })).toBeNull();
    expect(d.getByRole('group', { name: 'Remove cy@example.com' })).toBeInTheDocument();
    escape();
    expect(d.queryByRole('group', { name: 'Remove cy@example.com' })).toBeNull();
    expect(onOpenChange).not.toHaveBeenCalled();

    // Nothing was asked of the server; with no step open, Escape closes the dialog.
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
    escape();
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it('keeps the dialog and the step open on Escape while the removal is on its way', async () => {
    const onOpenChange = vi.fn();
    let answer: (a: Answer) => void = () => undefined;
    mockApi({
      [`GET ${base}/members`]: () => ({ body: team() }),
      [`DELETE ${base}/members/2`]: () => new Promise<Answer>((r) => (answer = r)),
    });
    renderRoute(<TeamModal open onOpenChange={onOpenChange} hash={HASH} meId={1} />, { path: '/', url: '/' });
    const d = await dialog();
    fireEvent.click(await d.findByRole('button', { name: 'Remove Bob' }));
    const confirm = d.getByRole('group', { name: 'Remove Bob' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(within(confirm).getByRole('button', { name: 'Confirm' })).toHaveAttribute('aria-busy', 'true'));
    fireEvent.keyDown(document.body, { key: 'Escape', code: 'Escape' });
    expect(onOpenChange).not.toHaveBeenCalled();
    expect(d.getByRole('group', { name: 'Remove Bob' })).toBeInTheDocument();
    answer({ status: 204 });
    await waitFor(() => expect(d.queryByLabelText('Rank of Bob')).toBeNull());
  });

  it('withdraws an invitation', async () => {
    const calls = setup({ [`DELETE ${base}/invitations/7`]: () => ({ status: 204 }) });
    const d = await dialog();
    fireEvent.click(await d.findByRole('button', { name: 'Withdraw the invitation for dee@example.com' }));
    await waitFor(() => expect(d.queryByTestId('team-invitation')).toBeNull());
    expect(calls.some((c) => c.method === 'DELETE' && c.path === `${base}/invitations/7`)).toBe(true);
  });

  it('offers Make owner only with canTransfer, and confirms that the owner stays an administrator', async () => {
    const after = team({ owner: { ...bob, permission: 4 }, members: [{ ...owner, permission: 3 }, cy], canTransfer: false });
    const calls = setup({ [`POST ${base}/owner`]: () => ({ body: after }) });
    const d = await dialog();
    fireEvent.click(await d.findByRole('button', { name: 'Make owner: Bob' }));
    const confirm = d.getByRole('group', { name: 'Make Bob the owner' });
    expect(confirm).toHaveTextContent('You stay on the team as an administrator');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(d.getByTestId('team-owner')).toHaveTextContent('Bob'));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ userId: 2 });
    expect(d.getByText('Bob now owns the tracker. You stay on the team as an administrator.')).toBeInTheDocument();
    expect(d.queryByRole('button', { name: /^Make owner/ })).toBeNull();
    expect(d.getByLabelText('Rank of Ada')).toHaveValue('3');
  });

  it('has no Make owner for an administrator who is not the owner', async () => {
    setup({ [`GET ${base}/members`]: () => ({ body: team({ canTransfer: false }) }) }, 3);
    const d = await dialog();
    await d.findByLabelText('Rank of Bob');
    expect(d.queryByRole('button', { name: /^Make owner/ })).toBeNull();
    expect(d.getByRole('button', { name: 'Remove Bob' })).toBeInTheDocument();
    expect(d.getByTestId('team-owner')).not.toHaveTextContent('(you)');
  });
});
