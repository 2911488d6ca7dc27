import { Context, type Effect } from "effect"
import type { RepositoryError } from "./Errors.ts"

/**
 * Runs repository calls atomically: all of their writes land, or none.
 * Repositories called inside `transaction` join it (Postgres: one connection, one BEGIN).
 */
export class Transactor extends Context.Service<
  Transactor,
  {
    readonly transaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E | RepositoryError, R>
  }
>()("margin/core/Transactor") {}
