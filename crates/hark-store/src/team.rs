//! A tracker's team: its members with their rank, invitations for addresses without an account,
//! and the transfer of ownership.

use hark_core::{Millis, Permission};

use crate::{with_pool, Audit, Result, Store};

/// A member of a tracker's team with the account's name and address.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct MemberRow {
    pub user_id: i64,
    pub email: String,
    pub name: String,
    pub permission: i64,
}

/// An open invitation (its token is known only to the link it was sent as).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct InvitationRow {
    pub id: i64,
    pub tracker_id: i64,
    pub email: String,
    pub permission: i64,
    pub invited_by: Option<i64>,
    pub created_at: Millis,
    pub expires_at: Millis,
}

const INVITATION_COLUMNS: &str = "id, tracker_id, email, permission, invited_by, created_at, expires_at";

impl Store {
    /// The tracker's members (not its owner), highest rank first, then by address.
    pub async fn members(&self, tracker_id: i64) -> Result<Vec<MemberRow>> {
        Ok(with_pool!(self, |p| sqlx::query_as::<_, MemberRow>(
            "SELECT u.id AS user_id, u.email, u.name, m.permission FROM tracker_members m JOIN users u ON u.id = m.user_id \
             WHERE m.tracker_id = $1 AND m.permission > 0 ORDER BY m.permission DESC, u.email"
        )
        .bind(tracker_id)
        .fetch_all(p)
        .await?))
    }

    /// Takes a member off the tracker, with its audit entry; false when the account was not one
    /// (and nothing is written).
    pub async fn remove_member(&self, tracker_id: i64, user_id: i64, audit: Option<&Audit>) -> Result<bool> {
        let sql = "DELETE FROM tracker_members WHERE tracker_id = $1 AND user_id = $2";
        Ok(self.write_audited(sql, &[tracker_id, user_id], audit).await? > 0)
    }

    /// Makes an account a member with `permission` (or gives a member that rank), with its audit
    /// entry.
    pub async fn add_member(&self, tracker_id: i64, user_id: i64, permission: Permission, audit: Option<&Audit>) -> Result<()> {
        let sql = "INSERT INTO tracker_members (tracker_id, user_id, permission) VALUES ($1, $2, $3) \
                   ON CONFLICT (tracker_id, user_id) DO UPDATE SET permission = excluded.permission";
        self.write_audited(sql, &[tracker_id, user_id, permission.rank()], audit).await.map(|_| ())
    }

    /// Gives a member another rank, with its audit entry; false when the account is not a member.
    pub async fn change_member_rank(&self, tracker_id: i64, user_id: i64, permission: Permission, audit: Option<&Audit>) -> Result<bool> {
        let sql = "UPDATE tracker_members SET permission = $3 WHERE tracker_id = $1 AND user_id = $2";
        Ok(self.write_audited(sql, &[tracker_id, user_id, permission.rank()], audit).await? > 0)
    }

    /// The tracker's open invitations (expired ones left out), oldest first.
    pub async fn invitations(&self, tracker_id: i64, now: Millis) -> Result<Vec<InvitationRow>> {
        let sql = format!("SELECT {INVITATION_COLUMNS} FROM tracker_invitations WHERE tracker_id = $1 AND expires_at > $2 ORDER BY id");
        Ok(with_pool!(self, |p| sqlx::query_as::<_, InvitationRow>(&sql).bind(tracker_id).bind(now).fetch_all(p).await?))
    }

    /// Invites `email` to the tracker with `permission`; a second invitation of the same address
    /// replaces the first (its old link stops working).
    #[allow(clippy::too_many_arguments)]
    pub async fn invite(
        &self,
        tracker_id: i64,
        email: &str,
        permission: Permission,
        token_hash: &str,
        invited_by: i64,
        now: Millis,
        expires_at: Millis,
    ) -> Result<InvitationRow> {
        let sql = format!(
            "INSERT INTO tracker_invitations (tracker_id, email, permission, token_hash, invited_by, created_at, expires_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7) \
             ON CONFLICT (tracker_id, email) DO UPDATE SET permission = excluded.permission, token_hash = excluded.token_hash, \
             invited_by = excluded.invited_by, created_at = excluded.created_at, expires_at = excluded.expires_at \
             RETURNING {INVITATION_COLUMNS}"
        );
        Ok(with_pool!(self, |p| sqlx::query_as::<_, InvitationRow>(&sql)
            .bind(tracker_id)
            .bind(email)
            .bind(permission.rank())
            .bind(token_hash)
            .bind(invited_by)
            .bind(now)
            .bind(expires_at)
            .fetch_one(p)
            .await?))
    }

    /// Withdraws an invitation; false when the tracker has none with this id.
    pub async fn delete_invitation(&self, tracker_id: i64, id: i64) -> Result<bool> {
        let done = with_pool!(self, |p| sqlx::query("DELETE FROM tracker_invitations WHERE tracker_id = $1 AND id = $2")
            .bind(tracker_id)
            .bind(id)
            .execute(p)
            .await?
            .rows_affected());
        Ok(done > 0)
    }

    /// The open invitation whose token hashes to `token_hash`.
    pub async fn invitation_by_token(&self, token_hash: &str, now: Millis) -> Result<Option<InvitationRow>> {
        let sql = format!("SELECT {INVITATION_COLUMNS} FROM tracker_invitations WHERE token_hash = $1 AND expires_at > $2");
        Ok(with_pool!(self, |p| sqlx::query_as::<_, InvitationRow>(&sql).bind(token_hash).bind(now).fetch_optional(p).await?))
    }

    /// Makes `user_id` a member as the invitation says (keeping a higher rank they already have)
    /// and closes the invitation, with the audit entry.
    pub async fn accept_invitation(&self, invitation: &InvitationRow, user_id: i64, audit: Option<&Audit>) -> Result<()> {
        crate::audit::audited_write!(self, audit, |tx| {
            sqlx::query(
                "INSERT INTO tracker_members (tracker_id, user_id, permission) VALUES ($1, $2, $3) \
                 ON CONFLICT (tracker_id, user_id) DO UPDATE SET permission = \
                 CASE WHEN tracker_members.permission > excluded.permission THEN tracker_members.permission ELSE excluded.permission END",
            )
            .bind(invitation.tracker_id)
            .bind(user_id)
            .bind(invitation.permission)
            .execute(&mut *tx)
            .await?;
            sqlx::query("DELETE FROM tracker_invitations WHERE id = $1").bind(invitation.id).execute(&mut *tx).await?;
        })
    }

    /// Hands the tracker to `new_owner` (a member); the old owner stays as an administrator.
    pub async fn transfer_ownership(&self, tracker_id: i64, old_owner: i64, new_owner: i64, now: Millis, audit: Option<&Audit>) -> Result<()> {
        crate::audit::audited_write!(self, audit, |tx| {
            sqlx::query("UPDATE trackers SET owner_id = $1, updated_at = $2 WHERE id = $3")
                .bind(new_owner)
                .bind(now)
                .bind(tracker_id)
                .execute(&mut *tx)
                .await?;
            sqlx::query("DELETE FROM tracker_members WHERE tracker_id = $1 AND user_id = $2")
                .bind(tracker_id)
                .bind(new_owner)
                .execute(&mut *tx)
                .await?;
            sqlx::query(
                "INSERT INTO tracker_members (tracker_id, user_id, permission) VALUES ($1, $2, $3) \
                 ON CONFLICT (tracker_id, user_id) DO UPDATE SET permission = excluded.permission",
            )
            .bind(tracker_id)
            .bind(old_owner)
            .bind(Permission::Administrator.rank())
            .execute(&mut *tx)
            .await?;
        })
    }
}
