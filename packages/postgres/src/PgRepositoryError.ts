import { RepositoryError } from "@margin/core/Errors"
import { Effect, type Schema, Stream } from "effect"
import type { SqlError } from "effect/sql/SqlError"

/**
 * What may go wrong under a repository method: the database (SqlError) or a row that does not
 * decode (SchemaError). Both leave the adapter as the core RepositoryError, named after the
 * port method, so no SQL type ever reaches core.
 */
export type PgFailure = SqlError | Schema.SchemaError

export const toRepositoryError =
  (operation: string) =>
  (failure: PgFailure): RepositoryError =>
    new RepositoryError({ operation, message: failure.message })

/** A RepositoryError already named (by a nested call) passes through; the rest is named `operation`. */
const naming =
  (operation: string) =>
  (failure: PgFailure | RepositoryError): RepositoryError =>
    failure._tag === "RepositoryError" ? failure : toRepositoryError(operation)(failure)

/** Runs a repository method's effect, its failures as RepositoryError. */
export const asRepository =
  (operation: string) =>
  <A, R>(effect: Effect.Effect<A, PgFailure | RepositoryError, R>): Effect.Effect<A, RepositoryError, R> =>
    Effect.mapError(effect, naming(operation))

/** The same for a stream. */
export const asRepositoryStream =
  (operation: string) =>
  <A, R>(stream: Stream.Stream<A, PgFailure | RepositoryError, R>): Stream.Stream<A, RepositoryError, R> =>
    Stream.mapError(stream, naming(operation))
