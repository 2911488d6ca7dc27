import type { Membership } from "@margin/core/access/Membership"
import { MembershipRepository } from "@margin/core/access/MembershipRepository"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { fastMembershipRow, MembershipRow } from "./PgCallerRows.ts"
import { fixedSql } from "./PgFixedSql.ts"
import { asRepositoryWith } from "./PgRepositoryError.ts"
import { columnsOf, firstOf, rowsOf, touchedAny } from "./PgRows.ts"

export const toDomain = (row: MembershipRow): Membership => ({
  workspaceId: row.workspace_id,
  userId: row.user_id,
  role: row.role
})

export const toRow = (membership: Membership): MembershipRow => ({
  workspace_id: membership.workspaceId,
  user_id: membership.userId,
  role: membership.role
})

const one = firstOf(MembershipRow, toDomain, fastMembershipRow)
const all = rowsOf(MembershipRow, toDomain, fastMembershipRow)

export const layer: Layer.Layer<MembershipRepository, never, SqlClient.SqlClient> = Layer.effect(
  MembershipRepository,
  Effect.gen(function* () {
    const sql = (yield* SqlClient.SqlClient).withoutTransforms()
    const columns = sql.literal(columnsOf(MembershipRow))
    // Every token request reads its issuer's membership: compiled once.
    const fixed = fixedSql(sql)
    return MembershipRepository.of({
      get: (workspaceId, userId) =>
        fixed`SELECT ${columns} FROM memberships WHERE workspace_id = ${workspaceId} AND user_id = ${userId}`.pipe(
          asRepositoryWith("MembershipRepository.get", one)
        ),
      listForUser: (userId) =>
        sql`SELECT ${columns} FROM memberships WHERE user_id = ${userId} ORDER BY workspace_id`.pipe(
          asRepositoryWith("MembershipRepository.listForUser", all)
        ),
      upsert: (membership) =>
        sql`
          INSERT INTO memberships ${sql.insert(toRow(membership))}
          ON CONFLICT (workspace_id, user_id) DO UPDATE SET role = EXCLUDED.role`.pipe(
          asRepositoryWith("MembershipRepository.upsert", () => Effect.void)
        ),
      remove: (workspaceId, userId) =>
        sql`DELETE FROM memberships WHERE workspace_id = ${workspaceId} AND user_id = ${userId} RETURNING user_id`.pipe(
          asRepositoryWith("MembershipRepository.remove", (rows) => Effect.succeed(touchedAny(rows)))
        ),
      // The port's contract: only owners and admins (they receive deprecation notices).
      listForWorkspace: (workspaceId) =>
        sql`
          SELECT ${columns} FROM memberships
          WHERE workspace_id = ${workspaceId} AND role IN ('admin', 'owner')
          ORDER BY user_id`.pipe(asRepositoryWith("MembershipRepository.listForWorkspace", all)),
      // The primary key (workspace_id, user_id) seeks to the page.
      listMembers: (workspaceId, { afterUserId, limit }) =>
        sql`
          SELECT ${columns} FROM memberships
          WHERE workspace_id = ${workspaceId}
            AND ${afterUserId === null ? sql.literal("TRUE") : sql`user_id > ${afterUserId}`}
          ORDER BY user_id
          LIMIT ${limit}`.pipe(asRepositoryWith("MembershipRepository.listMembers", all))
    })
  })
)
