import { RateBudget } from "@margin/core/access/RateBudget"
import type { CallerShape } from "@margin/edge/auth"
import { budgetKey } from "@margin/edge/auth"
import { RateLimited } from "@margin/edge/wire"
import { Clock, Effect } from "effect"
import type { HttpServerRequest } from "effect/http"

const batchStart = /^\s*\[/

/** How many JSON-RPC messages `body` batches; 1 for anything else (one message, or not JSON at all). */
export const messagesIn = (body: string): number => {
  // Looked at without copying the body: only a batch is parsed here.
  if (!batchStart.test(body)) return 1
  const parsed: unknown = JSON.parse(body)
  return Array.isArray(parsed) ? Math.max(1, parsed.length) : 1
}

/**
 * The rest of a JSON-RPC batch's budget. Admission counted the HTTP request once, as for one
 * message; a batch (protocol 2025-03-26) of n messages counts n - 1 more, so that n calls cost n
 * units whether they come in one request or in n. When the budget cannot cover them all, the whole
 * batch is refused (429 rate_limited with Retry-After) and none of it runs; what was counted stays
 * counted, as a REST request refused by the budget stays counted. A body that cannot be read or
 * parsed counts once: the MCP server answers it with its own error.
 */
export const batchCharge = Effect.gen(function* () {
  const budget = yield* RateBudget
  return (request: HttpServerRequest.HttpServerRequest, caller: CallerShape): Effect.Effect<RateLimited | undefined> =>
    request.method !== "POST"
      ? Effect.succeed(undefined)
      : Effect.gen(function* () {
          // The body is read once and kept: the MCP server reads the same text after this.
          const messages = yield* request.text.pipe(
            Effect.flatMap((body) => Effect.try(() => messagesIn(body))),
            Effect.orElseSucceed(() => 1)
          )
          if (messages === 1) return undefined
          const key = budgetKey(caller)
          const now = yield* Clock.currentTimeMillis
          for (let message = 1; message < messages; message++) {
            const decision = yield* budget.consume(key, now)
            if (decision._tag === "Limited") return new RateLimited({ retryAfterSeconds: decision.retryAfterSeconds })
          }
          return undefined
        })
})
