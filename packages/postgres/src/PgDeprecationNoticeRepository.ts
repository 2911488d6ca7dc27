import { Role } from "@margin/core/access/Role"
import type {
  DeprecationNoticeClaim,
  DeprecationNoticeRecord,
  NoticeRecipient
} from "@margin/core/deprecation/DeprecationNotice"
import { DeprecationNoticeRepository } from "@margin/core/deprecation/DeprecationNoticeRepository"
import { UserId, WorkspaceId } from "@margin/core/kernel/Ids"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { NullableInstant, toTimestamptz } from "./PgColumns.ts"
import { asRepository, asRepositoryWith } from "./PgRepositoryError.ts"
import { rowsOf } from "./PgRows.ts"

/** An owner or admin of a workspace, joined with their user, their workspace and their notice if any. */
const RecipientRow = Schema.Struct({
  workspace_id: WorkspaceId,
  workspace_name: Schema.String,
  user_id: UserId,
  email: Schema.String,
  email_confirmed: Schema.Boolean,
  role: Role,
  notified_at: NullableInstant
})
type RecipientRow = typeof RecipientRow.Type

export const toDomain = (row: RecipientRow): NoticeRecipient => ({
  workspaceId: row.workspace_id,
  workspaceName: row.workspace_name,
  userId: row.user_id,
  email: row.email,
  emailConfirmed: row.email_confirmed,
  role: row.role,
  notifiedAt: row.notified_at
})

export const toRow = (notice: DeprecationNoticeRecord) => ({
  operation: notice.operation,
  workspace_id: notice.workspaceId,
  user_id: notice.userId,
  email: notice.email,
  notified_at: toTimestamptz(notice.notifiedAt),
  transport: notice.transport
})

const claimRow = (claim: DeprecationNoticeClaim) => ({
  operation: claim.operation,
  workspace_id: claim.workspaceId,
  user_id: claim.userId,
  email: claim.email,
  transport: claim.transport,
  claimed_until: toTimestamptz(claim.until)
})

const all = rowsOf(RecipientRow, toDomain)

export const layer: Layer.Layer<DeprecationNoticeRepository, never, SqlClient.SqlClient> = Layer.effect(
  DeprecationNoticeRepository,
  Effect.gen(function* () {
    const sql = (yield* SqlClient.SqlClient).withoutTransforms()
    return DeprecationNoticeRepository.of({
      // Every workspace's owners and admins at once: a few rows per workspace, read once per notify.
      recipients: (operation) =>
        sql`
          SELECT m.workspace_id, w.name AS workspace_name, m.user_id, u.email, u.email_confirmed, m.role,
                 n.notified_at
          FROM memberships m
          JOIN users u ON u.id = m.user_id
          JOIN workspaces w ON w.id = m.workspace_id
          LEFT JOIN deprecation_notices n
            ON n.operation = ${operation} AND n.workspace_id = m.workspace_id AND n.user_id = m.user_id
          WHERE m.role IN ('owner', 'admin') AND u.deleted_at IS NULL
          ORDER BY m.workspace_id, m.user_id`.pipe(asRepositoryWith("DeprecationNoticeRepository.recipients", all)),
      // One statement, so that of two runs at once exactly one gets the row: ON CONFLICT DO UPDATE
      // locks the row and checks its WHERE against the latest committed claim.
      claim: (claim) =>
        sql`
          INSERT INTO deprecation_notices ${sql.insert(claimRow(claim))}
          ON CONFLICT (operation, workspace_id, user_id) DO UPDATE
            SET email = EXCLUDED.email, transport = EXCLUDED.transport, claimed_until = EXCLUDED.claimed_until
            WHERE deprecation_notices.notified_at IS NULL
              AND deprecation_notices.claimed_until <= ${toTimestamptz(claim.at)}
          RETURNING 1 AS claimed`.pipe(
          // Not claimed: say why (a second query, only when runs meet).
          Effect.flatMap((rows) =>
            rows.length === 1
              ? Effect.succeed("claimed" as const)
              : Effect.map(
                  sql`
                    SELECT notified_at IS NOT NULL AS sent FROM deprecation_notices
                    WHERE operation = ${claim.operation} AND workspace_id = ${claim.workspaceId}
                      AND user_id = ${claim.userId}`,
                  (found) => (found.some((row) => row.sent === true) ? ("sent" as const) : ("held" as const))
                )
          ),
          asRepository("DeprecationNoticeRepository.claim")
        ),
      record: (notice) =>
        sql`
          INSERT INTO deprecation_notices ${sql.insert(toRow(notice))}
          ON CONFLICT (operation, workspace_id, user_id) DO UPDATE
            SET email = EXCLUDED.email, notified_at = EXCLUDED.notified_at, transport = EXCLUDED.transport,
                claimed_until = NULL
            WHERE deprecation_notices.notified_at IS NULL`.pipe(
          asRepositoryWith("DeprecationNoticeRepository.record", () => Effect.void)
        ),
      release: (operation, workspaceId, userId) =>
        sql`
          DELETE FROM deprecation_notices
          WHERE operation = ${operation} AND workspace_id = ${workspaceId} AND user_id = ${userId}
            AND notified_at IS NULL`.pipe(asRepositoryWith("DeprecationNoticeRepository.release", () => Effect.void))
    })
  })
)
