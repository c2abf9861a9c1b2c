// The Team dialog: who may open the tracker and at what rank. Owners and administrators invite
// an address (an account joins at once; another address gets a sign-up link shown once), change a
// member's rank (saved at once, put back when refused), remove members, withdraw invitations; the
// owner alone hands the tracker to a member. Removing and handing over ask first, in a step under
// the member's row: Escape cancels that step (focus back on the button that opened it) and leaves
// the dialog open.
import { createContext, useContext, useEffect, useId, useRef, useState, type FormEvent, type ReactNode, type RefObject } from 'react';
import { ApiError } from '../../api/client';
import {
  useInvite,
  useRemoveMember,
  useSetRank,
  useTeam,
  useTransferOwnership,
  useWithdrawInvitation,
  type Invitation,
  type Member,
  type Team,
} from '../../api/queries/team';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { CopyField } from '../../components/CopyField';
import { LoadError } from '../../components/LoadError';
import { Modal } from '../../components/Modal';
import { LoadingState } from '../../components/Spinner';
import { formatDay } from '../../lib/dates';
import { errorMessage } from '../../lib/errors';
import { MEMBER_RANKS, rankName, VIEWER } from '../../lib/ranks';

/** Days a sign-up link stays open (the server's rule, repeated in the note under the link). */
export const INVITATION_DAYS = 14;

export interface TeamModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  hash: string;
  /** The signed-in caller's account id: their own row says "you". */
  meId: number | null;
}

/** A confirm step open in the dialog: its box, and how Escape cancels it. */
interface OpenStep {
  box: RefObject<HTMLDivElement | null>;
  cancel: () => void;
}

/** The dialog's open confirm steps, oldest first. */
const OpenSteps = createContext<RefObject<OpenStep[]> | null>(null);

export function TeamModal({ open, onOpenChange, hash, meId }: TeamModalProps) {
  const steps = useRef<OpenStep[]>([]);
  // Escape goes to a confirm step before the dialog: the one holding the focus, else the newest.
  const onEscape = (e: KeyboardEvent) => {
    const open = steps.current;
    if (!open.length) return;
    e.preventDefault();
    const target = e.target instanceof Node ? e.target : null;
    const step = [...open].reverse().find((s) => s.box.current?.contains(target)) ?? open[open.length - 1];
    step.cancel();
  };
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Team"
      description="People who can open this tracker, and what each of them may do."
      name="team"
      wide
      onEscapeKeyDown={onEscape}
    >
      <OpenSteps.Provider value={steps}>
        <TeamBody hash={hash} meId={meId} />
      </OpenSteps.Provider>
    </Modal>
  );
}

function TeamBody({ hash, meId }: { hash: string; meId: number | null }) {
  const team = useTeam(hash);
  if (team.isPending) return <LoadingState label="Loading the team…" />;
  if (team.isError) return <LoadError error={team.error} onRetry={() => team.refetch()} compact />;
  return (
    <div className="space-y-6">
      <InviteForm hash={hash} />
      <MemberList hash={hash} team={team.data} meId={meId} />
      {team.data.invitations.length ? <InvitationList hash={hash} invitations={team.data.invitations} /> : null}
    </div>
  );
}

const selectClass =
  'h-9 rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-800 shadow-sm focus:outline-none focus:ring-2 focus:ring-brand-500 disabled:bg-slate-50 disabled:text-slate-400';

/** What an invitation did: a sign-up link or a new member, and whether the server mailed it. */
type InviteResult = ({ kind: 'link'; email: string; url: string } | { kind: 'member'; name: string; rank: string }) & {
  emailed: boolean;
  mailError: string | null;
};

function InviteForm({ hash }: { hash: string }) {
  const id = useId();
  const invite = useInvite(hash);
  const [email, setEmail] = useState('');
  const [rank, setRank] = useState<number>(VIEWER);
  const [missing, setMissing] = useState<string | null>(null);
  const [result, setResult] = useState<InviteResult | null>(null);

  // Refusals about the address (not an address, the owner's, already a member) go under the field.
  const refused = invite.error instanceof ApiError && (invite.error.status === 409 || invite.error.status === 422);
  const fieldError = missing ?? (refused ? errorMessage(invite.error) : null);
  const otherError = invite.isError && !refused ? errorMessage(invite.error) : null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const address = email.trim();
    if (!address.includes('@')) {
      setMissing('Enter a valid e-mail address.');
      return;
    }
    setMissing(null);
    setResult(null);
    invite.mutate(
      { email: address, permission: rank },
      {
        onSuccess: (r) => {
          const mail = { emailed: !!r.emailed, mailError: r.mailError ?? null };
          if (r.link) setResult({ kind: 'link', email: r.invitation?.email ?? address, url: new URL(r.link, window.location.origin).href, ...mail });
          else if (r.member) setResult({ kind: 'member', name: r.member.name || r.member.email, rank: rankName(r.member.permission), ...mail });
          setEmail('');
        },
      },
    );
  };

  const summary = MEMBER_RANKS.find((r) => r.value === rank)?.summary;
  return (
    <section aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="text-sm font-semibold text-slate-900">
        Invite someone
      </h3>
      <form onSubmit={submit} noValidate className="mt-2">
        <div className="flex flex-wrap items-end gap-2">
          <div className="min-w-48 flex-1">
            <label htmlFor={`${id}-email`} className="mb-1 block text-xs font-medium text-slate-600">
              Email address
            </label>
            <input
              id={`${id}-email`}
              type="email"
              autoComplete="off"
              value={email}
              placeholder="name@example.com"
              aria-invalid={fieldError ? true : undefined}
              aria-describedby={fieldError ? `${id}-error` : `${id}-summary`}
              onChange={(e) => {
                setEmail(e.target.value);
                setMissing(null);
                if (invite.isError) invite.reset();
              }}
              className={`block h-9 w-full rounded-md border bg-white px-3 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:outline-none focus:ring-2 focus:ring-brand-500 ${fieldError ? 'border-red-400' : 'border-slate-300'}`}
            />
          </div>
          <div>
            <label htmlFor={`${id}-rank`} className="mb-1 block text-xs font-medium text-slate-600">
              Rank
            </label>
            <select id={`${id}-rank`} value={rank} onChange={(e) => setRank(Number(e.target.value))} className={selectClass}>
              {MEMBER_RANKS.map((r) => (
                <option key={r.value} value={r.value}>
                  {r.name}
                </option>
              ))}
            </select>
          </div>
          <Button type="submit" loading={invite.isPending}>
            Invite
          </Button>
        </div>
        {fieldError ? (
          <p id={`${id}-error`} role="alert" className="mt-1.5 text-sm text-red-600">
            {fieldError}
          </p>
        ) : (
          <p id={`${id}-summary`} className="mt-1.5 text-xs text-slate-500">
            {rankName(rank)}: {summary}
          </p>
        )}
        {otherError ? <Alert className="mt-2">{otherError}</Alert> : null}
      </form>
      {result?.kind === 'link' ? (
        <div className="mt-3 rounded-lg border border-brand-100 bg-brand-50/60 p-3" data-testid="invitation-link">
          <p className="mb-2 text-sm text-slate-800" role="status">
            {result.emailed ? (
              <>
                We e-mailed the sign-up link to <strong className="font-semibold">{result.email}</strong>. You can also pass it on yourself.
              </>
            ) : (
              <>
                <strong className="font-semibold">{result.email}</strong> has no account yet: send them this sign-up link.
              </>
            )}
          </p>
          <CopyField label="Sign-up link" value={result.url} />
          <p className="mt-2 text-xs text-slate-600">
            {result.emailed ? 'The link is shown here only once.' : 'The link is shown once: copy it now.'} It works for {INVITATION_DAYS} days; inviting the address again makes a new link and the old one stops working.
          </p>
        </div>
      ) : null}
      {result?.kind === 'member' ? (
        <Alert tone="info" className="mt-3">
          {result.name} has an account and joined the team as {result.rank}.{result.emailed ? ' They were told by e-mail.' : ''}
        </Alert>
      ) : null}
      {result?.mailError ? (
        <Alert tone="warning" className="mt-2">
          The e-mail could not be sent ({result.mailError}).{result.kind === 'link' ? ' Copy the link and send it yourself.' : ''}
        </Alert>
      ) : null}
    </section>
  );
}

function MemberList({ hash, team, meId }: { hash: string; team: Team; meId: number | null }) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <section aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} ref={heading} tabIndex={-1} className="text-sm font-semibold text-slate-900 focus:outline-none">
        Members
      </h3>
      {notice ? (
        <Alert tone="info" className="mt-2">
          {notice}
        </Alert>
      ) : null}
      <ul className="mt-2 divide-y divide-slate-100 rounded-lg border border-slate-200" aria-labelledby={`${id}-title`}>
        <li className="flex items-center gap-3 px-3 py-2.5" data-testid="team-owner">
          <Person member={team.owner} you={team.owner.userId === meId} />
          <span className="rounded-full bg-brand-50 px-2.5 py-0.5 text-xs font-semibold text-brand-700 ring-1 ring-brand-100">Owner</span>
        </li>
        {team.members.map((m) => (
          <MemberRow
            key={m.userId}
            hash={hash}
            member={m}
            meId={meId}
            canTransfer={team.canTransfer}
            focusAfterRemoval={heading}
            onTransferred={(name) => {
              setNotice(`${name} now owns the tracker. You stay on the team as an administrator.`);
              // The row that held the focus is gone (its member is the owner now).
              heading.current?.focus();
            }}
          />
        ))}
        {team.members.length === 0 ? (
          <li className="px-3 py-4 text-center text-sm text-slate-500">
            <p className="font-medium text-slate-700">No members yet</p>
            <p className="mt-0.5 text-xs">Invite someone above to work on this tracker with you.</p>
          </li>
        ) : null}
      </ul>
    </section>
  );
}

/** Initial, name and address of a team member. */
function Person({ member, you }: { member: Member; you: boolean }) {
  const name = member.name || member.email;
  return (
    <div className="flex min-w-0 flex-1 items-center gap-3">
      <span aria-hidden="true" className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-slate-200 text-xs font-semibold text-slate-700">
        {name.trim().charAt(0).toUpperCase() || '?'}
      </span>
      <div className="min-w-0">
        <p className="truncate text-sm font-medium text-slate-900" title={name}>
          {name}
          {you ? <span className="ml-1.5 text-xs font-normal text-slate-500">(you)</span> : null}
        </p>
        {member.name ? (
          <p className="truncate text-xs text-slate-500" title={member.email}>
            {member.email}
          </p>
        ) : null}
      </div>
    </div>
  );
}

function MemberRow({
  hash,
  member,
  meId,
  canTransfer,
  focusAfterRemoval,
  onTransferred,
}: {
  hash: string;
  member: Member;
  meId: number | null;
  canTransfer: boolean;
  focusAfterRemoval: RefObject<HTMLHeadingElement | null>;
  onTransferred: (name: string) => void;
}) {
  const selectId = useId();
  const setRank = useSetRank(hash, meId);
  const remove = useRemoveMember(hash, meId);
  const transfer = useTransferOwnership(hash);
  const [confirm, setConfirm] = useState<'remove' | 'owner' | null>(null);
  // The rank just chosen, shown until the server answers (then the team's copy holds the answer).
  const [choice, setChoice] = useState<number | null>(null);
  const removeButton = useRef<HTMLButtonElement>(null);
  const ownerButton = useRef<HTMLButtonElement>(null);
  const name = member.name || member.email;
  const you = member.userId === meId;
  const busy = remove.isPending || transfer.isPending;

  const close = (back: RefObject<HTMLButtonElement | null>) => {
    setConfirm(null);
    // Focus returns to the button that opened the confirm step.
    requestAnimationFrame(() => back.current?.focus());
  };

  return (
    <li className="px-3 py-2.5" data-testid="team-member">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <Person member={member} you={you} />
        <label htmlFor={selectId} className="sr-only">
          Rank of {name}
        </label>
        <select
          id={selectId}
          value={choice ?? member.permission}
          disabled={busy}
          aria-busy={setRank.isPending || undefined}
          onChange={(e) => {
            const permission = Number(e.target.value);
            setChoice(permission);
            setRank.mutate({ userId: member.userId, permission }, { onSettled: () => setChoice(null) });
          }}
          className={selectClass}
        >
          {MEMBER_RANKS.map((r) => (
            <option key={r.value} value={r.value}>
              {r.name}
            </option>
          ))}
        </select>
        <div className="flex items-center gap-1">
          {canTransfer ? (
            <Button
              ref={ownerButton}
              variant="ghost"
              size="sm"
              aria-label={`Make owner: ${name}`}
              disabled={busy}
              onClick={() => {
                transfer.reset();
                setConfirm('owner');
              }}
            >
              Make owner
            </Button>
          ) : null}
          <Button
            ref={removeButton}
            variant="ghost"
            size="sm"
            aria-label={`Remove ${name}`}
            disabled={busy}
            onClick={() => {
              remove.reset();
              setConfirm('remove');
            }}
          >
            Remove
          </Button>
        </div>
      </div>
      {setRank.isError ? (
        <p role="alert" className="mt-1.5 text-sm text-red-600">
          The rank was not changed: {errorMessage(setRank.error)}
        </p>
      ) : null}
      {confirm === 'remove' ? (
        <ConfirmStep
          label={`Remove ${name}`}
          busy={remove.isPending}
          error={remove.isError ? errorMessage(remove.error) : null}
          onCancel={() => close(removeButton)}
          onConfirm={() => remove.mutate(member.userId, { onSuccess: () => focusAfterRemoval.current?.focus() })}
        >
          {you ? 'Remove yourself? You lose access to this tracker.' : `Remove ${name}? They lose access to this tracker.`}
        </ConfirmStep>
      ) : null}
      {confirm === 'owner' ? (
        <ConfirmStep
          label={`Make ${name} the owner`}
          busy={transfer.isPending}
          error={transfer.isError ? errorMessage(transfer.error) : null}
          onCancel={() => close(ownerButton)}
          onConfirm={() => transfer.mutate(member.userId, { onSuccess: () => onTransferred(name) })}
        >
          Make {name} the owner of this tracker? You stay on the team as an administrator, and only they can hand it on again.
        </ConfirmStep>
      ) : null}
    </li>
  );
}

function ConfirmStep({
  label,
  busy,
  error,
  onConfirm,
  onCancel,
  children,
}: {
  label: string;
  busy: boolean;
  error: string | null;
  onConfirm: () => void;
  onCancel: () => void;
  children: ReactNode;
}) {
  const textId = useId();
  const box = useRef<HTMLDivElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  // Escape cancels the step, except while its action is on its way (the dialog stays open then too).
  const latest = useRef({ busy, onCancel });
  useEffect(() => {
    latest.current = { busy, onCancel };
  });
  const steps = useContext(OpenSteps);
  useEffect(() => {
    if (!steps) return;
    const step: OpenStep = { box, cancel: () => !latest.current.busy && latest.current.onCancel() };
    steps.current.push(step);
    return () => {
      steps.current = steps.current.filter((s) => s !== step);
    };
  }, [steps]);
  return (
    <div
      ref={box}
      role="group"
      aria-label={label}
      aria-describedby={textId}
      className="mt-2 rounded-md border border-red-200 bg-red-50 px-3 py-2"
    >
      <div className="flex flex-wrap items-center gap-3">
        <p id={textId} className="min-w-0 flex-1 text-sm text-red-800">
          {children}
        </p>
        <div className="flex gap-2">
          <Button variant="danger" size="sm" loading={busy} onClick={onConfirm}>
            Confirm
          </Button>
          <Button ref={cancel} variant="secondary" size="sm" disabled={busy} onClick={onCancel}>
            Cancel
          </Button>
        </div>
      </div>
      {error ? <Alert className="mt-2">{error}</Alert> : null}
    </div>
  );
}

function InvitationList({ hash, invitations }: { hash: string; invitations: Invitation[] }) {
  const id = useId();
  return (
    <section aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="text-sm font-semibold text-slate-900">
        Pending invitations
      </h3>
      <ul className="mt-2 divide-y divide-slate-100 rounded-lg border border-slate-200" aria-labelledby={`${id}-title`}>
        {invitations.map((i) => (
          <InvitationRow key={i.id} hash={hash} invitation={i} />
        ))}
      </ul>
    </section>
  );
}

function InvitationRow({ hash, invitation }: { hash: string; invitation: Invitation }) {
  const withdraw = useWithdrawInvitation(hash);
  return (
    <li className="px-3 py-2.5" data-testid="team-invitation">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-medium text-slate-900" title={invitation.email}>
            {invitation.email}
          </p>
          <p className="text-xs text-slate-500">
            {rankName(invitation.permission)} · link expires {formatDay(invitation.expiresAt)}
          </p>
        </div>
        <Button
          variant="secondary"
          size="sm"
          aria-label={`Withdraw the invitation for ${invitation.email}`}
          loading={withdraw.isPending}
          onClick={() => withdraw.mutate(invitation.id)}
        >
          Withdraw
        </Button>
      </div>
      {withdraw.isError ? (
        <p role="alert" className="mt-1.5 text-sm text-red-600">
          {errorMessage(withdraw.error)}
        </p>
      ) : null}
    </li>
  );
}
