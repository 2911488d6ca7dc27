import type { RequestNotes } from "@margin/edge/RequestLog"
import { Effect } from "effect"

/**
 * Puts on the request's server span what its log line says (`request_id`, and `caller` and
 * `workspace` once authenticated), so that a request id from an error body finds its trace. Without
 * a span (tracing off: Effect's server makes none) it does nothing. One annotation of all three,
 * not one each: this runs on every request.
 */
export const annotateRequestSpan = (requestId: string, notes: RequestNotes): Effect.Effect<void> =>
  Effect.annotateCurrentSpan(
    notes.caller === null
      ? { request_id: requestId }
      : notes.workspace === null
        ? { request_id: requestId, caller: notes.caller }
        : { request_id: requestId, caller: notes.caller, workspace: notes.workspace }
  )
