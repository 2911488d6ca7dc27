import { SupportSessionId, WorkspaceId } from "@margin/core/kernel/Ids"
import type { SupportSession } from "@margin/core/workspaces/SupportSession"
import { SupportSessionRepository } from "@margin/core/workspaces/SupportSessionRepository"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Instant, NullableInstant, toNullableTimestamptz, toTimestamptz } from "./PgColumns.ts"
import { asRepository, asRepositoryWith } from "./PgRepositoryError.ts"
import { columnsOf, firstOf } from "./PgRows.ts"

/** A row of `support_sessions` as core sees it: the session's secrets are never selected here. */
export const SupportSessionRow = Schema.Struct({
  id: SupportSessionId,
  workspace_id: WorkspaceId,
  admin_email: Schema.String,
  started_at: Instant,
  expires_at: Instant,
  closed_at: NullableInstant
})
export type SupportSessionRow = typeof SupportSessionRow.Type

export const toDomain = (row: SupportSessionRow): SupportSession => ({
  id: row.id,
  workspaceId: row.workspace_id,
  adminEmail: row.admin_email,
  startedAt: row.started_at,
  expiresAt: row.expires_at,
  closedAt: row.closed_at
})

export const toRow = (session: SupportSession) => ({
  id: session.id,
  workspace_id: session.workspaceId,
  admin_email: session.adminEmail,
  started_at: toTimestamptz(session.startedAt),
  expires_at: toTimestamptz(session.expiresAt),
  closed_at: toNullableTimestamptz(session.closedAt)
})

const one = firstOf(SupportSessionRow, toDomain)

export const layer: Layer.Layer<SupportSessionRepository, never, SqlClient.SqlClient> = Layer.effect(
  SupportSessionRepository,
  Effect.gen(function* () {
    const sql = (yield* SqlClient.SqlClient).withoutTransforms()
    const columns = sql.literal(columnsOf(SupportSessionRow))
    return SupportSessionRepository.of({
      // Several may overlap; the one that started last is the one to show.
      activeFor: (workspaceId, now) =>
        sql`
          SELECT ${columns} FROM support_sessions
          WHERE workspace_id = ${workspaceId} AND closed_at IS NULL
            AND started_at <= ${toTimestamptz(now)} AND expires_at > ${toTimestamptz(now)}
          ORDER BY started_at DESC, id DESC
          LIMIT 1`.pipe(asRepositoryWith("SupportSessionRepository.activeFor", one)),
      open: (session) =>
        sql`INSERT INTO support_sessions ${sql.insert(toRow(session))}`.pipe(
          asRepositoryWith("SupportSessionRepository.open", () => Effect.void)
        ),
      // Open = not closed and not yet expired; an expired session has ended on its own.
      close: (workspaceId, now) =>
        sql`
          UPDATE support_sessions SET closed_at = ${toTimestamptz(now)}
          WHERE workspace_id = ${workspaceId} AND closed_at IS NULL AND expires_at > ${toTimestamptz(now)}
          RETURNING id`.pipe(
          Effect.map((rows) => rows.length),
          asRepository("SupportSessionRepository.close")
        )
    })
  })
)
