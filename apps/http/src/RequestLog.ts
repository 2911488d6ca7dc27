import { budgetKey } from "@margin/edge/Authenticate"
import type { CallerShape } from "@margin/edge/Caller"
import { Context, Effect, Option } from "effect"

/**
 * What the one log line of a request says about it beyond method, path and status: filled in
 * by the layers that learn it (authentication), read by the request logger when it answers.
 * Never the credential itself: the caller is named by its budget key (`token:<id>`, `user:<id>`).
 */
export interface RequestNotes {
  caller: string | null
  workspace: string | null
}

export class RequestLog extends Context.Service<RequestLog, RequestNotes>()("margin/http/RequestLog") {
  static readonly noteCaller = (caller: CallerShape): Effect.Effect<void> =>
    Effect.map(Effect.serviceOption(RequestLog), (notes) => {
      if (Option.isSome(notes)) {
        notes.value.caller = budgetKey(caller)
        notes.value.workspace = caller.workspaceId
      }
    })
}
