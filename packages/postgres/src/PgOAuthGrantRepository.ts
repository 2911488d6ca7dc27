import { Scope } from "@margin/core/access/Scope"
import { GrantId, OAuthClientId, UserId, WorkspaceId } from "@margin/core/kernel/Ids"
import type { OAuthGrant } from "@margin/core/oauth/OAuthGrant"
import { OAuthGrantRepository } from "@margin/core/oauth/OAuthGrantRepository"
import { type OAuthToken, OAuthTokenKind } from "@margin/core/oauth/OAuthToken"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Instant, NullableInstant, toNullableTimestamptz, toTimestamptz } from "./PgColumns.ts"
import { asRepository, asRepositoryWith } from "./PgRepositoryError.ts"
import { columnsOf, countOf, firstOf, markOnce, rowsOf, touchedAny } from "./PgRows.ts"

export const GrantRow = Schema.Struct({
  id: GrantId,
  user_id: UserId,
  client_id: OAuthClientId,
  workspace_id: WorkspaceId,
  scopes: Schema.Array(Scope),
  resource: Schema.String,
  created_at: Instant,
  revoked_at: NullableInstant,
  last_used_at: NullableInstant
})
export type GrantRow = typeof GrantRow.Type

export const OAuthTokenRow = Schema.Struct({
  grant_id: GrantId,
  kind: OAuthTokenKind,
  created_at: Instant,
  expires_at: Instant,
  used_at: NullableInstant,
  revoked_at: NullableInstant
})
export type OAuthTokenRow = typeof OAuthTokenRow.Type

export const grantToDomain = (row: GrantRow): OAuthGrant => ({
  id: row.id,
  userId: row.user_id,
  clientId: row.client_id,
  workspaceId: row.workspace_id,
  scopes: row.scopes,
  resource: row.resource,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
  lastUsedAt: row.last_used_at
})

export const grantToRow = (grant: OAuthGrant) => ({
  id: grant.id,
  user_id: grant.userId,
  client_id: grant.clientId,
  workspace_id: grant.workspaceId,
  scopes: grant.scopes,
  resource: grant.resource,
  created_at: toTimestamptz(grant.createdAt),
  revoked_at: toNullableTimestamptz(grant.revokedAt),
  last_used_at: toNullableTimestamptz(grant.lastUsedAt)
})

export const tokenToDomain = (row: OAuthTokenRow): OAuthToken => ({
  grantId: row.grant_id,
  kind: row.kind,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  usedAt: row.used_at,
  revokedAt: row.revoked_at
})

export const tokenToRow = (tokenHash: string, token: OAuthToken) => ({
  token_hash: tokenHash,
  grant_id: token.grantId,
  kind: token.kind,
  created_at: toTimestamptz(token.createdAt),
  expires_at: toTimestamptz(token.expiresAt),
  used_at: toNullableTimestamptz(token.usedAt),
  revoked_at: toNullableTimestamptz(token.revokedAt)
})

const oneGrant = firstOf(GrantRow, grantToDomain)
const grants = rowsOf(GrantRow, grantToDomain)
const oneToken = firstOf(OAuthTokenRow, tokenToDomain)

export const layer: Layer.Layer<OAuthGrantRepository, never, SqlClient.SqlClient> = Layer.effect(
  OAuthGrantRepository,
  Effect.gen(function* () {
    const sql = (yield* SqlClient.SqlClient).withoutTransforms()
    const grantColumns = sql.literal(columnsOf(GrantRow))
    const tokenColumns = sql.literal(columnsOf(OAuthTokenRow))
    return OAuthGrantRepository.of({
      // One statement: the live-grant index is the conflict target, so racing consents of one
      // (user, client, workspace) end in one grant.
      consent: (fresh) =>
        sql`INSERT INTO oauth_grants ${sql.insert(grantToRow(fresh))}
          ON CONFLICT (user_id, client_id, workspace_id) WHERE revoked_at IS NULL
          DO UPDATE SET scopes = EXCLUDED.scopes, resource = EXCLUDED.resource
          RETURNING ${grantColumns}`.pipe(
          asRepositoryWith("OAuthGrantRepository.consent", (rows) =>
            Effect.flatMap(oneGrant(rows), (stored) =>
              Option.isSome(stored) ? Effect.succeed(stored.value) : Effect.die("consent returned no row")
            )
          )
        ),
      get: (id) =>
        sql`SELECT ${grantColumns} FROM oauth_grants WHERE id = ${id}`.pipe(
          asRepositoryWith("OAuthGrantRepository.get", oneGrant)
        ),
      list: (filter) =>
        sql`SELECT ${grantColumns} FROM oauth_grants
          WHERE ${filter.userId === undefined ? sql.literal("TRUE") : sql`user_id = ${filter.userId}`}
            AND ${filter.workspaceId === undefined ? sql.literal("TRUE") : sql`workspace_id = ${filter.workspaceId}`}
          ORDER BY created_at DESC, id DESC`.pipe(asRepositoryWith("OAuthGrantRepository.list", grants)),
      touch: (id, at) =>
        sql`UPDATE oauth_grants SET last_used_at = ${toTimestamptz(at)}
          WHERE id = ${id} AND (last_used_at IS NULL OR last_used_at < ${toTimestamptz(at)})`.pipe(
          Effect.asVoid,
          asRepository("OAuthGrantRepository.touch")
        ),
      revoke: (id, at) =>
        sql`UPDATE oauth_grants SET revoked_at = ${toTimestamptz(at)}
          WHERE id = ${id} AND revoked_at IS NULL RETURNING id`.pipe(
          Effect.map(touchedAny),
          asRepository("OAuthGrantRepository.revoke")
        ),
      insertToken: (tokenHash, token) =>
        sql`INSERT INTO oauth_tokens ${sql.insert(tokenToRow(tokenHash, token))}`.pipe(
          Effect.asVoid,
          asRepository("OAuthGrantRepository.insertToken")
        ),
      findToken: (tokenHash) =>
        sql`SELECT ${tokenColumns} FROM oauth_tokens WHERE token_hash = ${tokenHash}`.pipe(
          asRepositoryWith("OAuthGrantRepository.findToken", oneToken)
        ),
      useToken: (tokenHash, at) =>
        markOnce(
          Effect.flatMap(
            sql`UPDATE oauth_tokens SET used_at = ${toTimestamptz(at)}
              WHERE token_hash = ${tokenHash} AND used_at IS NULL RETURNING ${tokenColumns}`,
            oneToken
          ),
          (token) => ({ ...token, usedAt: null }),
          Effect.flatMap(sql`SELECT ${tokenColumns} FROM oauth_tokens WHERE token_hash = ${tokenHash}`, oneToken)
        ).pipe(asRepository("OAuthGrantRepository.useToken")),
      revokeToken: (tokenHash, at) =>
        sql`UPDATE oauth_tokens SET revoked_at = ${toTimestamptz(at)}
          WHERE token_hash = ${tokenHash} AND revoked_at IS NULL RETURNING token_hash`.pipe(
          Effect.map(touchedAny),
          asRepository("OAuthGrantRepository.revokeToken")
        ),
      deleteDeadTokens: (now) =>
        sql`WITH deleted AS (
            DELETE FROM oauth_tokens
            WHERE expires_at <= ${toTimestamptz(now)} OR revoked_at <= ${toTimestamptz(now)}
              OR grant_id IN (SELECT id FROM oauth_grants WHERE revoked_at <= ${toTimestamptz(now)})
            RETURNING 1
          ) SELECT count(*) AS count FROM deleted`.pipe(
          Effect.flatMap(countOf),
          asRepository("OAuthGrantRepository.deleteDeadTokens")
        )
    })
  })
)
