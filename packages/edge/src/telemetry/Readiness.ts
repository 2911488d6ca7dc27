import { RepositoryError } from "@margin/core/kernel/Errors"
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"

/** What `GET /readyz` checks: the system of record answers. */
export class Readiness extends Context.Service<Readiness, { readonly check: Effect.Effect<void, RepositoryError> }>()(
  "margin/edge/Readiness"
) {
  /** In-memory adapters are always there. */
  static readonly layerAlwaysReady: Layer.Layer<Readiness> = Layer.succeed(
    Readiness,
    Readiness.of({ check: Effect.void })
  )

  /** A database round trip, bounded by two seconds. */
  static readonly layerSql: Layer.Layer<Readiness, never, SqlClient.SqlClient> = Layer.effect(
    Readiness,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      return Readiness.of({
        check: sql`SELECT 1`.pipe(
          Effect.asVoid,
          Effect.timeout("2 seconds"),
          Effect.mapError((error) => new RepositoryError({ operation: "readiness", message: error.message }))
        )
      })
    })
  )
}
