import { Clock, Context, Effect, References } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import { CurrentRequestId, requestIdOf, withRequestId } from "./RequestId.ts"

const pathOf = (url: string): string => {
  const end = url.search(/[?#]/)
  return end === -1 ? url : url.slice(0, end)
}

/**
 * Request ids and the request log line for a process without the REST API's response guard (the
 * MCP server alone): the id (the caller's `x-request-id` when sane) on every log line of the
 * request, in `CurrentRequestId` (an MCP tool's error result carries it), in the `x-request-id`
 * header and in an error envelope's `request_id`; then one `http request` line.
 */
export const layer = HttpRouter.middleware(
  (httpEffect) =>
    Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const started = yield* Clock.currentTimeNanos
      const requestId = requestIdOf(request.headers["x-request-id"])
      const response = yield* httpEffect.pipe(
        Effect.updateContext((context: Context.Context<HttpServerRequest.HttpServerRequest>) =>
          context.pipe(
            Context.add(CurrentRequestId, requestId),
            Context.add(References.CurrentLogAnnotations, {
              ...Context.get(context, References.CurrentLogAnnotations),
              request_id: requestId
            })
          )
        )
      )
      const finished = yield* Clock.currentTimeNanos
      yield* Effect.logInfo("http request").pipe(
        Effect.annotateLogs({
          request_id: requestId,
          method: request.method,
          path: pathOf(request.url),
          status: response.status,
          duration_ms: Number(finished - started) / 1e6
        })
      )
      return withRequestId(response, requestId)
    }),
  { global: true }
)
