import { decide, minuteMs, windowStart } from "@margin/core/access/FixedWindow"
import { RateBudgetStore } from "@margin/core/access/RateBudgetStore"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { toTimestamptz } from "./PgColumns.ts"
import { fixedSql } from "./PgFixedSql.ts"
import { asRepositoryWith } from "./PgRepositoryError.ts"
import { firstCount } from "./PgRows.ts"

export interface PgRateBudgetStoreOptions {
  readonly limit: number
  readonly windowMs?: number
}

/**
 * The shared budget in `rate_budget_windows`: one upsert per request increments the counter of
 * (key, window) under the row lock, so the count is exact across processes. A key's older
 * windows are deleted when its next window opens, so the table holds about one row per key.
 * A count the database cannot make fails with RepositoryError (the servers then count in memory:
 * FallbackRateBudget of @margin/runtime).
 */
export const layer = (options: PgRateBudgetStoreOptions): Layer.Layer<RateBudgetStore, never, SqlClient.SqlClient> =>
  Layer.effect(
    RateBudgetStore,
    Effect.gen(function* () {
      // Its rows need no name transforms (`count` is `count`).
      const sql = (yield* SqlClient.SqlClient).withoutTransforms()
      const windowMs = options.windowMs ?? minuteMs
      // Every authenticated request counts: compiled once.
      const fixed = fixedSql(sql)

      // Combinators rather than a generator, and one continuation: every request runs this. A key's
      // first count in a window also deletes its older windows.
      const consume = (key: string, now: number) => {
        const start = windowStart(now, windowMs)
        return fixed`
          INSERT INTO rate_budget_windows (key, window_start, count)
          VALUES (${key}, ${toTimestamptz(start)}, 1)
          ON CONFLICT (key, window_start) DO UPDATE SET count = rate_budget_windows.count + 1
          RETURNING count`.pipe(
          asRepositoryWith("RateBudget.consume", (rows) =>
            Effect.flatMapEager(firstCount(rows), (returned) => {
              const counted = Option.getOrElse(returned, () => 1)
              const decision = decide(counted, options.limit, start, windowMs, now)
              return counted === 1
                ? Effect.as(
                    sql`DELETE FROM rate_budget_windows WHERE key = ${key} AND window_start < ${toTimestamptz(start)}`,
                    decision
                  )
                : Effect.succeed(decision)
            })
          )
        )
      }

      return RateBudgetStore.of({ name: "postgres", limit: options.limit, consume })
    })
  )
