import { WorkspaceId } from "@margin/core/kernel/Ids"
import { type StoreConnection, StoreConnectionStatus, StorePlatform } from "@margin/core/stores/StoreConnection"
import { StoreConnectionRepository } from "@margin/core/stores/StoreConnectionRepository"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { CredentialCipher } from "./CredentialCipher.ts"
import { Instant, toTimestamptz } from "./PgColumns.ts"
import { pageBy } from "./PgPaging.ts"
import { asRepository, asRepositoryWith } from "./PgRepositoryError.ts"
import { columnsOf, firstOf, rowsOf, touchedAny } from "./PgRows.ts"

/** A row of `store_connections` as core sees it: the sealed credentials are never selected here. */
export const StoreConnectionRow = Schema.Struct({
  workspace_id: WorkspaceId,
  platform: StorePlatform,
  shop: Schema.NullOr(Schema.String),
  status: StoreConnectionStatus,
  connected_at: Instant
})
export type StoreConnectionRow = typeof StoreConnectionRow.Type

export const toDomain = (row: StoreConnectionRow): StoreConnection => ({
  workspaceId: row.workspace_id,
  platform: row.platform,
  shop: row.shop,
  status: row.status,
  connectedAt: row.connected_at
})

export const toRow = (connection: StoreConnection, encryptedCredentials: Uint8Array | null) => ({
  workspace_id: connection.workspaceId,
  platform: connection.platform,
  shop: connection.shop,
  status: connection.status,
  connected_at: toTimestamptz(connection.connectedAt),
  encrypted_credentials: encryptedCredentials,
  disconnected_at: null
})

const one = firstOf(StoreConnectionRow, toDomain)
const all = rowsOf(StoreConnectionRow, toDomain)

export const layer: Layer.Layer<StoreConnectionRepository, never, SqlClient.SqlClient | CredentialCipher> =
  Layer.effect(
    StoreConnectionRepository,
    Effect.gen(function* () {
      const sql = (yield* SqlClient.SqlClient).withoutTransforms()
      const cipher = yield* CredentialCipher
      const columns = sql.literal(columnsOf(StoreConnectionRow))
      return StoreConnectionRepository.of({
        get: (workspaceId) =>
          sql`SELECT ${columns} FROM store_connections WHERE workspace_id = ${workspaceId}`.pipe(
            asRepositoryWith("StoreConnectionRepository.get", one)
          ),
        // One connection per workspace: reconnecting replaces platform, shop and credentials.
        connect: (connection, credentials) =>
          Effect.gen(function* () {
            const sealed = credentials === null ? null : yield* cipher.seal(connection.workspaceId, credentials)
            const row = toRow(connection, sealed)
            yield* sql`
            INSERT INTO store_connections ${sql.insert(row)}
            ON CONFLICT (workspace_id) DO UPDATE SET
              platform = EXCLUDED.platform,
              shop = EXCLUDED.shop,
              status = EXCLUDED.status,
              connected_at = EXCLUDED.connected_at,
              encrypted_credentials = EXCLUDED.encrypted_credentials,
              disconnected_at = NULL`
          }).pipe(asRepository("StoreConnectionRepository.connect")),
        // The row stays (status `disconnected`) so that the workspace's history still names its store;
        // the credentials go at once.
        disconnect: (workspaceId) =>
          sql`
          UPDATE store_connections
          SET status = 'disconnected', encrypted_credentials = NULL, disconnected_at = now()
          WHERE workspace_id = ${workspaceId} AND status = 'connected'
          RETURNING workspace_id`.pipe(Effect.map(touchedAny), asRepository("StoreConnectionRepository.disconnect")),
        // Operators only, a row per workspace at most: each page reads the table (no index on connected_at).
        list: (filter, page) =>
          sql`
          SELECT ${columns} FROM store_connections
          WHERE ${filter.status === null ? sql.literal("TRUE") : sql`status = ${filter.status}`}
            AND ${
              page.cursor === null
                ? sql.literal("TRUE")
                : sql`(connected_at, workspace_id) < (${new Date(page.cursor.createdAt)}, ${page.cursor.id})`
            }
          ORDER BY connected_at DESC, workspace_id DESC
          LIMIT ${page.limit + 1}`.pipe(
            Effect.flatMap(all),
            Effect.map((connections) =>
              pageBy(
                connections,
                (connection) => ({ createdAt: connection.connectedAt, id: connection.workspaceId }),
                page.limit
              )
            ),
            asRepository("StoreConnectionRepository.list")
          )
      })
    })
  )
