import { Context, Effect, type Fiber, References } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"
import type { Connection, Row } from "effect/sql/SqlConnection"
import type { SqlError } from "effect/sql/SqlError"
import { CurrentTransformer } from "effect/sql/Statement"

/**
 * Statements of fixed text (PgFixedSql's) inside a transaction, run on the transaction's connection.
 * `sql.unsafe(text, parameters)` gets there too, through a statement object, its compilation (cached
 * in a WeakMap), a span, a look for a statement transformer and the client's connection lookup: about
 * nine run-loop steps a statement more (measured: 23.6 against 14.6 per statement of a transaction),
 * and a transition's lock, save and audit insert run on every accept. Outside a transaction, with
 * tracing on (the span is wanted) or a statement transformer set, it is `sql.unsafe` itself. Meant for
 * a client without name transforms (`sql.withoutTransforms()`), as every repository's is: the rows
 * come back as the driver gives them.
 */
export interface TransactionLane {
  /** The rows of `text` with `parameters`. */
  readonly rows: (text: string, parameters: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<Row>, SqlError>
  /** The rows of `text` with `parameters` as the driver's values, in the statement's column order. */
  readonly values: (
    text: string,
    parameters: ReadonlyArray<unknown>
  ) => Effect.Effect<ReadonlyArray<ReadonlyArray<unknown>>, SqlError>
}

export const transactionLane = (sql: SqlClient): TransactionLane => {
  /** The open transaction's connection when a statement may skip the client's path; else undefined. */
  const laneOf = (fiber: Fiber.Fiber<unknown, unknown>): Connection | undefined => {
    const open = Context.getOrUndefined(fiber.context, sql.transactionService)
    if (open === undefined) return undefined
    return fiber.getRef(References.TracerEnabled) || fiber.getRef(CurrentTransformer) !== undefined
      ? undefined
      : open[0]
  }
  return {
    rows: (text, parameters) =>
      Effect.withFiber((fiber) => {
        const connection = laneOf(fiber)
        return connection === undefined
          ? sql.unsafe<Row>(text, parameters)
          : connection.execute(text, parameters, undefined)
      }),
    values: (text, parameters) =>
      Effect.withFiber((fiber) => {
        const connection = laneOf(fiber)
        return connection === undefined
          ? sql.unsafe(text, parameters).values
          : connection.executeValues(text, parameters)
      })
  }
}
