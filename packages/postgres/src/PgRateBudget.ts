import { decide, minuteMs, windowStart } from "@margin/core/FixedWindow"
import { RateBudget } from "@margin/core/ports/RateBudget"
import * as FallbackRateBudget from "@margin/edge/FallbackRateBudget"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { toTimestamptz } from "./PgColumns.ts"
import { fixedSql } from "./PgFixedSql.ts"
import { asRepositoryWith } from "./PgRepositoryError.ts"
import { firstCount } from "./PgRows.ts"

export interface PgRateBudgetOptions {
  readonly limit: number
  readonly windowMs?: number
}

/**
 * The shared budget in `rate_budget_windows`: one upsert per request increments the counter of
 * (key, window) under the row lock, so the count is exact across processes. A key's older
 * windows are deleted when its next window opens, so the table holds about one row per key.
 * If the database cannot answer, this process counts in its own memory budget until it is back
 * (FallbackRateBudget of @margin/edge), logging the outage and the recovery once each.
 */
export const layer = (options: PgRateBudgetOptions): Layer.Layer<RateBudget, never, SqlClient.SqlClient> =>
  Layer.effect(
    RateBudget,
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

      return yield* FallbackRateBudget.make({
        store: "postgres",
        limit: options.limit,
        consume
      })
    })
  )
