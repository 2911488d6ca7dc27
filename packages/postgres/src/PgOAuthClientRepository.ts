import { OAuthClientId } from "@margin/core/kernel/Ids"
import { type OAuthClient, TokenEndpointAuthMethod } from "@margin/core/oauth/OAuthClient"
import { OAuthClientRepository, type StoredOAuthClient } from "@margin/core/oauth/OAuthClientRepository"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Instant, toTimestamptz } from "./PgColumns.ts"
import { asRepository, asRepositoryWith } from "./PgRepositoryError.ts"
import { columnsOf, countOf, firstOf } from "./PgRows.ts"

export const OAuthClientRow = Schema.Struct({
  id: OAuthClientId,
  name: Schema.String,
  redirect_uris: Schema.Array(Schema.String),
  metadata_url: Schema.NullOr(Schema.String),
  token_endpoint_auth_method: TokenEndpointAuthMethod,
  secret_hash: Schema.NullOr(Schema.String),
  created_at: Instant
})
export type OAuthClientRow = typeof OAuthClientRow.Type

export const toDomain = (row: OAuthClientRow): StoredOAuthClient => ({
  client: {
    id: row.id,
    name: row.name,
    redirectUris: row.redirect_uris,
    metadataUrl: row.metadata_url,
    tokenEndpointAuthMethod: row.token_endpoint_auth_method,
    createdAt: row.created_at
  },
  secretHash: row.secret_hash
})

export const toRow = (client: OAuthClient, secretHash: string | null) => ({
  id: client.id,
  name: client.name,
  redirect_uris: client.redirectUris,
  metadata_url: client.metadataUrl,
  token_endpoint_auth_method: client.tokenEndpointAuthMethod,
  secret_hash: secretHash,
  created_at: toTimestamptz(client.createdAt)
})

const one = firstOf(OAuthClientRow, toDomain)

export const layer: Layer.Layer<OAuthClientRepository, never, SqlClient.SqlClient> = Layer.effect(
  OAuthClientRepository,
  Effect.gen(function* () {
    const sql = (yield* SqlClient.SqlClient).withoutTransforms()
    const columns = sql.literal(columnsOf(OAuthClientRow))
    return OAuthClientRepository.of({
      get: (id) =>
        sql`SELECT ${columns} FROM oauth_clients WHERE id = ${id}`.pipe(
          asRepositoryWith("OAuthClientRepository.get", one)
        ),
      // A metadata document read again replaces what it said; the first sighting's instant stays.
      save: (client, secretHash) => {
        const row = toRow(client, secretHash)
        return sql`INSERT INTO oauth_clients ${sql.insert(row)}
          ON CONFLICT (id) DO UPDATE SET
            name = EXCLUDED.name,
            redirect_uris = EXCLUDED.redirect_uris,
            metadata_url = EXCLUDED.metadata_url,
            token_endpoint_auth_method = EXCLUDED.token_endpoint_auth_method,
            secret_hash = EXCLUDED.secret_hash`.pipe(Effect.asVoid, asRepository("OAuthClientRepository.save"))
      },
      deleteUnused: (createdBefore) =>
        sql`WITH deleted AS (
            DELETE FROM oauth_clients AS c
            WHERE c.created_at < ${toTimestamptz(createdBefore)}
              AND NOT EXISTS (SELECT 1 FROM oauth_grants AS g WHERE g.client_id = c.id)
            RETURNING 1
          ) SELECT count(*) AS count FROM deleted`.pipe(
          Effect.flatMap(countOf),
          asRepository("OAuthClientRepository.deleteUnused")
        )
    })
  })
)
