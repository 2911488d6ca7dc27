import { RepositoryError } from "@margin/core/kernel/Errors"
import * as Outcome from "@margin/core/kernel/Outcome"
import { Context, Effect, Option } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"
import type { Row } from "effect/sql/SqlConnection"
import type { Fragment, Statement } from "effect/sql/Statement"
import { fixedTextOf, isSqlPiece, textOf } from "./PgFixedSql.ts"
import { asRepository, type PgFailure } from "./PgRepositoryError.ts"
import { transactionLane } from "./PgTransactionLane.ts"

/** What `update(id, decide)` needs of an entity: its keys, and the version the save bumps. */
export interface Versioned {
  readonly id: string
  readonly workspaceId: string
  readonly version: number
}

/** How one table loads and saves an entity for `decideAndSave`. */
export interface VersionedRows<A extends Versioned> {
  /** `SELECT … WHERE workspace_id = … AND id = … FOR UPDATE`: None when the workspace has no such row. */
  readonly lock: Effect.Effect<Option.Option<A>, PgFailure>
  /**
   * `UPDATE … WHERE workspace_id = … AND id = … AND version = before.version RETURNING …`: None when
   * the version moved. `before` is the row as locked, the one `after` was decided on.
   */
  readonly save: (after: A, before: A) => Effect.Effect<Option.Option<A>, PgFailure>
}

/** How often a lost compare-and-swap reloads and decides again before giving up. */
const maxAttempts = 3

/**
 * Load (locked) -> decide -> save with a compare-and-swap on `version`, in one transaction (a
 * transaction of its own unless the caller's is open). Only a transition is saved, with the keys kept
 * and the version bumped; the outcome carries the row as saved. The row lock already serializes
 * writers; the version guard makes the save safe even without it, and a lost swap decides again
 * on the reloaded row.
 */
export const decideAndSave = <A extends Versioned>(
  sql: SqlClient,
  operation: string,
  rows: VersionedRows<A>,
  decide: (current: A) => Outcome.Outcome<A>
): Effect.Effect<Option.Option<Outcome.Outcome<A>>, RepositoryError> => {
  const attempts = attempt(operation, rows, decide, maxAttempts)
  // Inside the caller's transaction the row lock and the swap need no savepoint of their own (a lost
  // swap is no SQL error, and any SQL error fails the caller's transaction anyway): SAVEPOINT and
  // RELEASE were two of the seven round trips of an accept, on a connection held meanwhile.
  return Effect.contextWith((context: Context.Context<never>) =>
    Context.getOrUndefined(context, sql.transactionService) === undefined ? sql.withTransaction(attempts) : attempts
  ).pipe(asRepository(operation))
}

// Combinators rather than a generator: a generator function written inside `decideAndSave` would be
// a new closure per call, for which V8 builds a new map and prototype (docs/history/performance-log.md, session 8).
const attempt = <A extends Versioned>(
  operation: string,
  rows: VersionedRows<A>,
  decide: (current: A) => Outcome.Outcome<A>,
  remaining: number
): Effect.Effect<Option.Option<Outcome.Outcome<A>>, PgFailure | RepositoryError> =>
  Effect.flatMap(rows.lock, (loaded) => {
    if (Option.isNone(loaded)) return Effect.succeedNone
    const current = loaded.value
    const outcome = decide(current)
    if (outcome._tag !== "Transitioned") return Effect.succeedSome(outcome)
    const after: A = {
      ...outcome.after,
      id: current.id,
      workspaceId: current.workspaceId,
      version: current.version + 1
    }
    return Effect.flatMap(rows.save(after, current), (saved) => {
      if (Option.isSome(saved)) return Effect.succeedSome(Outcome.transitioned(current, saved.value))
      if (remaining > 1) return attempt(operation, rows, decide, remaining - 1)
      return Effect.fail(
        new RepositoryError({
          operation,
          message: `${current.id} kept changing under the update (${maxAttempts} attempts)`
        })
      )
    })
  })

/**
 * The first row of a statement that selects a table's columns, decoded: from the driver's row
 * objects (PgRows.firstOf) or from its values (PgRows.fromValues of firstOf, for wide rows).
 */
export type FirstRow<A> =
  | {
      readonly reads: "rows"
      readonly decode: (rows: ReadonlyArray<Row>) => Effect.Effect<Option.Option<A>, PgFailure>
    }
  | {
      readonly reads: "values"
      readonly decode: (values: ReadonlyArray<ReadonlyArray<unknown>>) => Effect.Effect<Option.Option<A>, PgFailure>
    }

/** A table whose rows carry `workspace_id`, `id` and `version`, as `updateOn` reads and writes them. */
export interface VersionedTable<A extends Versioned> {
  readonly table: "recommendations" | "alerts" | "runs"
  /** The column list the row schema decodes. */
  readonly columns: Fragment
  /** How the locked and the saved row come back and decode. */
  readonly first: FirstRow<A>
  /** The columns a saved transition writes, with their new values: those that differ (PgRows.transitionChanges). */
  readonly changes: (before: A, after: A) => Record<string, unknown>
  /** The port method, for errors. */
  readonly operation: string
}

/**
 * The port's `update(workspaceId, id, decide)` on `table`: the row locked with FOR UPDATE, saved
 * with `UPDATE … SET <the changed columns> WHERE workspace_id AND id AND version = the version
 * decided on`. Both run inside the transaction `decideAndSave` opens or joins, on its connection
 * (PgTransactionLane).
 */
export const updateOn = <A extends Versioned>(sql: SqlClient, table: VersionedTable<A>) => {
  // Built once per table: the lock's text here, the save's once per set of changed columns (a
  // table's transitions change a handful of sets).
  const name = sql(table.table)
  const lane = transactionLane(sql)
  const first = table.first
  const run = (text: string, parameters: ReadonlyArray<unknown>) =>
    first.reads === "values"
      ? Effect.flatMap(lane.values(text, parameters), first.decode)
      : Effect.flatMap(lane.rows(text, parameters), first.decode)
  const read = (statement: Statement<Row>) =>
    first.reads === "values" ? Effect.flatMap(statement.values, first.decode) : Effect.flatMap(statement, first.decode)
  const lockStatement = (workspaceId: unknown, id: unknown) =>
    sql`SELECT ${table.columns} FROM ${name} WHERE workspace_id = ${workspaceId} AND id = ${id} FOR UPDATE`
  const lockText = fixedTextOf(2, ([workspaceId, id]) => lockStatement(workspaceId, id))
  const lock = (workspaceId: string, id: string) =>
    lockText === null ? read(lockStatement(workspaceId, id)) : run(lockText, [workspaceId, id])
  const saveTexts = new Map<string, string | null>()

  const save = (workspaceId: string, id: string, changes: Record<string, unknown>, version: number) => {
    const columns = Object.keys(changes).join(",")
    const values = Object.values(changes)
    const known = saveTexts.get(columns)
    // `sql.update` writes an undefined value as null.
    const parameters = [...values.map((value) => (value === undefined ? null : value)), workspaceId, id, version]
    if (known !== undefined && known !== null && !values.some(isSqlPiece)) return run(known, parameters)
    const statement = sql`
      UPDATE ${name} SET ${sql.update(changes)}
      WHERE workspace_id = ${workspaceId} AND id = ${id} AND version = ${version}
      RETURNING ${table.columns}`
    if (known === undefined) saveTexts.set(columns, textOf(statement, parameters))
    return read(statement)
  }

  return (workspaceId: string, id: string, decide: (current: A) => Outcome.Outcome<A>) =>
    decideAndSave(
      sql,
      table.operation,
      {
        lock: lock(workspaceId, id),
        save: (after, before) => save(workspaceId, id, table.changes(before, after), before.version)
      },
      decide
    )
}
