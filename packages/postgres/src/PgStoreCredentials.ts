import { StoreCredentials } from "@margin/core/stores/StoreCredentials"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { CredentialCipher } from "./CredentialCipher.ts"
import { asRepository } from "./PgRepositoryError.ts"
import { firstOf } from "./PgRows.ts"

const SealedRow = Schema.Struct({ encrypted_credentials: Schema.NullOr(Schema.Uint8Array) })
const sealedOf = firstOf(SealedRow, (row) => Option.fromNullishOr(row.encrypted_credentials))

/**
 * The store adapters' read of the credentials PgStoreConnectionRepository sealed: the connected
 * store of the connection's workspace, opened with the CredentialCipher. None when the workspace
 * has no connected store or it holds no credentials.
 */
export const layer: Layer.Layer<StoreCredentials, never, SqlClient.SqlClient | CredentialCipher> = Layer.effect(
  StoreCredentials,
  Effect.gen(function* () {
    const sql = (yield* SqlClient.SqlClient).withoutTransforms()
    const cipher = yield* CredentialCipher
    return StoreCredentials.of({
      accessToken: (connection) =>
        sql`
          SELECT encrypted_credentials FROM store_connections
          WHERE workspace_id = ${connection.workspaceId} AND status = 'connected'`.pipe(
          Effect.flatMap(sealedOf),
          Effect.map(Option.flatten),
          Effect.flatMap(
            Option.match({
              onNone: () => Effect.succeedNone,
              onSome: (sealed) => Effect.asSome(cipher.open(connection.workspaceId, sealed))
            })
          ),
          asRepository("StoreCredentials.accessToken")
        )
    })
  })
)
