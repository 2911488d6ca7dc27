import { Scope } from "@margin/core/access/Scope"
import { GrantId, OAuthClientId } from "@margin/core/kernel/Ids"
import type { AuthorizationCode } from "@margin/core/oauth/AuthorizationCode"
import { AuthorizationCodeRepository } from "@margin/core/oauth/AuthorizationCodeRepository"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Instant, NullableInstant, toNullableTimestamptz, toTimestamptz } from "./PgColumns.ts"
import { asRepository } from "./PgRepositoryError.ts"
import { columnsOf, countOf, firstOf, markOnce } from "./PgRows.ts"

export const AuthorizationCodeRow = Schema.Struct({
  grant_id: GrantId,
  client_id: OAuthClientId,
  redirect_uri: Schema.String,
  code_challenge: Schema.String,
  scopes: Schema.Array(Scope),
  resource: Schema.String,
  created_at: Instant,
  expires_at: Instant,
  used_at: NullableInstant
})
export type AuthorizationCodeRow = typeof AuthorizationCodeRow.Type

export const toDomain = (row: AuthorizationCodeRow): AuthorizationCode => ({
  grantId: row.grant_id,
  clientId: row.client_id,
  redirectUri: row.redirect_uri,
  codeChallenge: row.code_challenge,
  scopes: row.scopes,
  resource: row.resource,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  usedAt: row.used_at
})

export const toRow = (codeHash: string, code: AuthorizationCode) => ({
  code_hash: codeHash,
  grant_id: code.grantId,
  client_id: code.clientId,
  redirect_uri: code.redirectUri,
  code_challenge: code.codeChallenge,
  scopes: code.scopes,
  resource: code.resource,
  created_at: toTimestamptz(code.createdAt),
  expires_at: toTimestamptz(code.expiresAt),
  used_at: toNullableTimestamptz(code.usedAt)
})

const one = firstOf(AuthorizationCodeRow, toDomain)

export const layer: Layer.Layer<AuthorizationCodeRepository, never, SqlClient.SqlClient> = Layer.effect(
  AuthorizationCodeRepository,
  Effect.gen(function* () {
    const sql = (yield* SqlClient.SqlClient).withoutTransforms()
    const columns = sql.literal(columnsOf(AuthorizationCodeRow))
    return AuthorizationCodeRepository.of({
      insert: (codeHash, code) =>
        sql`INSERT INTO oauth_authorization_codes ${sql.insert(toRow(codeHash, code))}`.pipe(
          Effect.asVoid,
          asRepository("AuthorizationCodeRepository.insert")
        ),
      find: (codeHash) =>
        Effect.flatMap(sql`SELECT ${columns} FROM oauth_authorization_codes WHERE code_hash = ${codeHash}`, one).pipe(
          asRepository("AuthorizationCodeRepository.find")
        ),
      consume: (codeHash, at) =>
        markOnce(
          Effect.flatMap(
            sql`UPDATE oauth_authorization_codes SET used_at = ${toTimestamptz(at)}
              WHERE code_hash = ${codeHash} AND used_at IS NULL RETURNING ${columns}`,
            one
          ),
          (code) => ({ ...code, usedAt: null }),
          Effect.flatMap(sql`SELECT ${columns} FROM oauth_authorization_codes WHERE code_hash = ${codeHash}`, one)
        ).pipe(asRepository("AuthorizationCodeRepository.consume")),
      deleteExpired: (now) =>
        sql`WITH deleted AS (
            DELETE FROM oauth_authorization_codes WHERE expires_at <= ${toTimestamptz(now)} RETURNING 1
          ) SELECT count(*) AS count FROM deleted`.pipe(
          Effect.flatMap(countOf),
          asRepository("AuthorizationCodeRepository.deleteExpired")
        )
    })
  })
)
