import { Duration, Effect, Schedule } from "effect"
import type { SqlClient } from "effect/sql"

/**
 * How many other backends of the test's database hold a transaction id (have written in an open
 * transaction), optionally only those whose last statement mentions `table`: a process midway.
 */
const writers = (sql: SqlClient.SqlClient, table: string | null) => sql<{ readonly count: number }>`
  SELECT count(*)::int AS count FROM pg_stat_activity
  WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_xid IS NOT NULL
    AND ${table === null ? sql.literal("TRUE") : sql`query ILIKE ${`%${table}%`}`}`

/** Waits (polling every 10 ms, at most 2 minutes) until another backend writes, to `table` when given. */
export const untilWriting = (sql: SqlClient.SqlClient, table: string | null = null) =>
  writers(sql, table).pipe(
    Effect.flatMap(([row]) => ((row?.count ?? 0) > 0 ? Effect.void : Effect.fail("not yet" as const))),
    Effect.retry(Schedule.spaced(Duration.millis(10))),
    Effect.timeout(Duration.seconds(120)),
    Effect.orDie
  )

/** Waits (polling every 50 ms, at most a minute) until no other backend writes: a dropped one was rolled back. */
export const untilNoneWriting = (sql: SqlClient.SqlClient) =>
  writers(sql, null).pipe(
    Effect.flatMap(([row]) => ((row?.count ?? 0) === 0 ? Effect.void : Effect.fail("still writing" as const))),
    Effect.retry(Schedule.spaced(Duration.millis(50))),
    Effect.timeout(Duration.seconds(60)),
    Effect.orDie
  )
