import { RepositoryError } from "@margin/core/kernel/Errors"
import { Cause, Effect, type Schema, Stream } from "effect"
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

/**
 * `Effect.flatMap(then)` then `asRepository(operation)` on a repository method's statement, in one
 * continuation of the run loop instead of two: the statement's rows go to `then` (decoding them, say),
 * and a failure of either is named `operation`. Repository calls run several times per request, and
 * each continuation is two steps of the run loop.
 */
export const asRepositoryWith = <A, B>(
  operation: string,
  then: (value: A) => Effect.Effect<B, PgFailure | RepositoryError>
) => {
  const name = naming(operation)
  return <R>(statement: Effect.Effect<A, PgFailure, R>): Effect.Effect<B, RepositoryError, R> =>
    Effect.matchCauseEffect(statement, {
      onFailure: (cause) => Effect.failCause(Cause.map(cause, name)),
      // A decoded row is a succeeded effect already, left as it is.
      onSuccess: (value) => Effect.mapErrorEager(then(value), name)
    })
}

/** The same for a stream. */
export const asRepositoryStream =
  (operation: string) =>
  <A, R>(stream: Stream.Stream<A, PgFailure | RepositoryError, R>): Stream.Stream<A, RepositoryError, R> =>
    Stream.mapError(stream, naming(operation))
