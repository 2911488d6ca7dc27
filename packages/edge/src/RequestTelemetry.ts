import { Clock, Context, Effect, References } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import { CurrentRequestId, requestIdOf, withRequestId } from "./RequestId.ts"
import { RequestLog } from "./RequestLog.ts"
import { recordRequest } from "./RequestMetrics.ts"
import { pathOf } from "./RequestPath.ts"

/**
 * What the REST server's response guard gives each request, for a process that serves a few
 * fixed paths without it (the MCP server alone): the request id (the caller's `x-request-id` when
 * sane) on every log line of the request, in `CurrentRequestId` (an MCP tool's error result carries
 * it), in the `x-request-id` header and in an error envelope's `request_id`; the HTTP metrics by
 * path (`unmatched` for any path outside `paths`, so that labels stay few); one `http request` line,
 * naming the caller and workspace once authentication learnt them.
 */
export const layer = (paths: ReadonlyArray<string>) => {
  const known = new Set(paths)
  return HttpRouter.middleware(
    (httpEffect) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const started = yield* Clock.currentTimeNanos
        const path = pathOf(request.url)
        const requestId = requestIdOf(request.headers["x-request-id"])
        const notes = RequestLog.empty()
        const response = yield* httpEffect.pipe(
          Effect.updateContext((context: Context.Context<HttpServerRequest.HttpServerRequest>) =>
            context.pipe(
              Context.add(RequestLog, notes),
              Context.add(CurrentRequestId, requestId),
              Context.add(References.CurrentLogAnnotations, {
                ...Context.get(context, References.CurrentLogAnnotations),
                request_id: requestId
              })
            )
          )
        )
        const finished = yield* Clock.currentTimeNanos
        const seconds = Number(finished - started) / 1e9
        yield* recordRequest(request.method, known.has(path) ? path : "unmatched", response.status, seconds)
        yield* Effect.logInfo("http request").pipe(
          Effect.annotateLogs({
            request_id: requestId,
            method: request.method,
            path,
            status: response.status,
            duration_ms: seconds * 1e3,
            caller: notes.caller,
            workspace: notes.workspace
          })
        )
        return withRequestId(response, requestId)
      }),
    { global: true }
  )
}
