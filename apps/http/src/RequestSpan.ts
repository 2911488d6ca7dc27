import type { RequestNotes } from "@margin/edge/RequestLog"
import { Effect } from "effect"

/**
 * Puts on the request's server span what its log line says (`request_id`, and `caller` and
 * `workspace` once authenticated), so that a request id from an error body finds its trace. Without
 * a span (tracing off: Effect's server makes none) it does nothing.
 */
export const annotateRequestSpan = (requestId: string, notes: RequestNotes): Effect.Effect<void> =>
  Effect.andThen(
    Effect.annotateCurrentSpan("request_id", requestId),
    notes.caller === null
      ? Effect.void
      : Effect.andThen(
          Effect.annotateCurrentSpan("caller", notes.caller),
          notes.workspace === null ? Effect.void : Effect.annotateCurrentSpan("workspace", notes.workspace)
        )
  )
