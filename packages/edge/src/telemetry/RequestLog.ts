import { Context, Effect } from "effect"

/**
 * What the one log line of a request says about it beyond method, path and status: filled in
 * by what learns it (authentication, as soon as the credential names someone, so that a refused
 * request — 429, 403 — still says whose it was), read by the request logger when it answers.
 * Never the credential itself: the caller is named by its budget key (`token:<id>`, `user:<id>`).
 */
export interface RequestNotes {
  caller: string | null
  workspace: string | null
}

export class RequestLog extends Context.Service<RequestLog, RequestNotes>()("margin/edge/RequestLog") {
  /** Notes who the request is from (and the workspace, once known); nothing outside a request. */
  static readonly note = (caller: string, workspace: string | null): Effect.Effect<void> =>
    Effect.contextWith((context: Context.Context<never>) => {
      const notes = Context.getOrUndefined(context, RequestLog)
      if (notes !== undefined) {
        notes.caller = caller
        if (workspace !== null) notes.workspace = workspace
      }
      return Effect.void
    })

  /** Fresh notes for one request. */
  static readonly empty = (): RequestNotes => ({ caller: null, workspace: null })
}
