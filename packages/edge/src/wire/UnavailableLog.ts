import { Effect } from "effect"
import type { ApiFailure } from "./ErrorEnvelope.ts"

/**
 * Logs, at Warn, why a caller is answered `service_unavailable`: the envelope only says "retry
 * shortly", so the operation and the database's reason must reach the log (with the request's id
 * and caller, as every line of the request). Other failures are the caller's and are not logged.
 */
export const logIfUnavailable = (failure: ApiFailure): Effect.Effect<void> =>
  failure._tag === "RepositoryError"
    ? Effect.logWarning("service unavailable: the database could not answer").pipe(
        Effect.annotateLogs({ operation: failure.operation, reason: failure.message })
      )
    : Effect.void
