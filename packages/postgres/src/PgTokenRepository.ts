import type { ApiToken } from "@margin/core/access/ApiToken"
import { TokenRepository } from "@margin/core/access/TokenRepository"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { fastTokenRow, TokenRow } from "./PgCallerRows.ts"
import { toNullableTimestamptz, toTimestamptz } from "./PgColumns.ts"
import { fixedSql } from "./PgFixedSql.ts"
import { afterCursor, asPage } from "./PgPaging.ts"
import { asRepository, asRepositoryWith } from "./PgRepositoryError.ts"
import { columnsOf, firstOf, rowsOf, touchedAny } from "./PgRows.ts"

export const toDomain = (row: TokenRow): ApiToken => ({
  id: row.id,
  workspaceId: row.workspace_id,
  issuedBy: row.issued_by,
  name: row.name,
  scopes: row.scopes,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  revokedAt: row.revoked_at,
  lastUsedAt: row.last_used_at
})

export const toRow = (token: ApiToken, secretHash: string) => ({
  id: token.id,
  workspace_id: token.workspaceId,
  issued_by: token.issuedBy,
  name: token.name,
  scopes: token.scopes,
  secret_hash: secretHash,
  created_at: toTimestamptz(token.createdAt),
  expires_at: toNullableTimestamptz(token.expiresAt),
  revoked_at: toNullableTimestamptz(token.revokedAt),
  last_used_at: toNullableTimestamptz(token.lastUsedAt)
})

const one = firstOf(TokenRow, toDomain, fastTokenRow)
const all = rowsOf(TokenRow, toDomain, fastTokenRow)

/**
 * Tokens are looked up before any workspace is known (the token names it), so these queries
 * go by token id or by the unique secret hash.
 */
export const layer: Layer.Layer<TokenRepository, never, SqlClient.SqlClient> = Layer.effect(
  TokenRepository,
  Effect.gen(function* () {
    const sql = (yield* SqlClient.SqlClient).withoutTransforms()
    const columns = sql.literal(columnsOf(TokenRow))
    // Every authenticated request looks its token up: compiled once.
    const fixed = fixedSql(sql)
    return TokenRepository.of({
      findBySecretHash: (secretHash) =>
        fixed`SELECT ${columns} FROM api_tokens WHERE secret_hash = ${secretHash}`.pipe(
          asRepositoryWith("TokenRepository.findBySecretHash", one)
        ),
      get: (id) =>
        sql`SELECT ${columns} FROM api_tokens WHERE id = ${id}`.pipe(asRepositoryWith("TokenRepository.get", one)),
      insert: (token, secretHash) =>
        sql`INSERT INTO api_tokens ${sql.insert(toRow(token, secretHash))}`.pipe(
          asRepositoryWith("TokenRepository.insert", () => Effect.void)
        ),
      // True only for the call that revokes: a second one keeps the first instant.
      revoke: (id, at) =>
        sql`UPDATE api_tokens SET revoked_at = ${toTimestamptz(at)} WHERE id = ${id} AND revoked_at IS NULL RETURNING id`.pipe(
          Effect.map(touchedAny),
          asRepository("TokenRepository.revoke")
        ),
      touch: (id, at) =>
        sql`UPDATE api_tokens SET last_used_at = ${toTimestamptz(at)} WHERE id = ${id}`.pipe(
          asRepositoryWith("TokenRepository.touch", () => Effect.void)
        ),
      // api_tokens_workspace_idx (workspace_id, created_at DESC, id DESC) seeks to the page.
      listForWorkspace: (workspaceId, filter, page) =>
        sql`
          SELECT ${columns} FROM api_tokens
          WHERE workspace_id = ${workspaceId}
            AND ${filter.issuedBy === null ? sql.literal("TRUE") : sql`issued_by = ${filter.issuedBy}`}
            AND ${afterCursor(sql, page.cursor)}
          ORDER BY created_at DESC, id DESC
          LIMIT ${page.limit + 1}`.pipe(asPage("TokenRepository.listForWorkspace", all, page.limit))
    })
  })
)
