import { IdentityKeyStore } from "@margin/core/access/IdentityKeyStore"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Instant, toTimestamptz } from "./PgColumns.ts"
import { asRepository } from "./PgRepositoryError.ts"

/** A row of `identity_keys`; the JWKs are read back as their JSON text, exactly as the key store hands them out. */
const IdentityKeyRow = Schema.Struct({
  kid: Schema.String,
  algorithm: Schema.Literal("ES256"),
  public_jwk: Schema.String,
  private_jwk: Schema.String,
  created_at: Instant
})

const decodeRows = Schema.decodeUnknownEffect(Schema.Array(IdentityKeyRow))

/**
 * The development identity key in `identity_keys`. At most one key is active (a partial unique
 * index): when two processes store their first key at once, the second insert does nothing and
 * both read back the one that won.
 */
export const layer: Layer.Layer<IdentityKeyStore, never, SqlClient.SqlClient> = Layer.effect(
  IdentityKeyStore,
  Effect.gen(function* () {
    const sql = (yield* SqlClient.SqlClient).withoutTransforms()
    const current = sql`
      SELECT kid, algorithm, public_jwk::text AS public_jwk, private_jwk::text AS private_jwk, created_at
      FROM identity_keys WHERE active`.pipe(
      Effect.flatMap(decodeRows),
      Effect.map((rows) =>
        Option.map(Option.fromUndefinedOr(rows[0]), (row) => ({
          kid: row.kid,
          algorithm: row.algorithm,
          publicJwk: row.public_jwk,
          privateJwk: row.private_jwk,
          createdAt: row.created_at
        }))
      )
    )
    return IdentityKeyStore.of({
      current: current.pipe(asRepository("IdentityKeyStore.current")),
      insertIfAbsent: (candidate) =>
        sql`
          INSERT INTO identity_keys (kid, algorithm, public_jwk, private_jwk, active, created_at)
          VALUES (${candidate.kid}, ${candidate.algorithm}, ${candidate.publicJwk}::jsonb,
                  ${candidate.privateJwk}::jsonb, true, ${toTimestamptz(candidate.createdAt)})
          ON CONFLICT DO NOTHING`.pipe(
          Effect.andThen(current),
          // The insert and the read both ran: the table has an active key now.
          Effect.flatMap(
            Option.match({
              onNone: () => Effect.die("identity_keys has no active key after an insert"),
              onSome: Effect.succeed
            })
          ),
          asRepository("IdentityKeyStore.insertIfAbsent")
        )
    })
  })
)
