import { Clock, Context, Effect, Tracer } from "effect"
import { HttpRouter, HttpServerRequest, type HttpServerResponse } from "effect/http"
import { withLogAnnotations } from "./LogAnnotations.ts"
import { CurrentRequestId, requestIdOf, withRequestId } from "./RequestId.ts"
import { RequestLog, type RequestNotes } from "./RequestLog.ts"
import { recordRequestIn } from "./RequestMetrics.ts"
import { pathOf } from "./RequestPath.ts"

/** What a request's telemetry takes from the request as it starts. */
export interface RequestStart {
  readonly method: string
  readonly path: string
  /** The caller's `x-request-id` when sane, otherwise a fresh UUID. */
  readonly requestId: string
  /** Filled in by authentication; read by the log line. */
  readonly notes: RequestNotes
  readonly startedNanos: bigint
}

/** The start of the request in `context`, read without an effect of its own (this runs on every request). */
export const startOf = (context: Context.Context<HttpServerRequest.HttpServerRequest>): RequestStart => {
  const request = Context.get(context, HttpServerRequest.HttpServerRequest)
  return {
    method: request.method,
    path: pathOf(request.url),
    requestId: requestIdOf(request.headers["x-request-id"]),
    notes: RequestLog.empty(),
    startedNanos: Context.get(context, Clock.Clock).currentTimeNanosUnsafe()
  }
}

/**
 * `context` with the request's own values, for what answers it: its notes, its id, and the id on
 * every log line (authentication adds caller and workspace). Meant for one `Effect.updateContext`:
 * each change of context costs a copy.
 */
export const requestContext = <R>(start: RequestStart, context: Context.Context<R>): Context.Context<R> =>
  withLogAnnotations(
    context.pipe(Context.add(RequestLog, start.notes), Context.add(CurrentRequestId, start.requestId)),
    { request_id: start.requestId }
  )

/**
 * Puts on the request's server span what its log line says (`request_id`, and `caller` and
 * `workspace` once authenticated), so that a request id from an error body finds its trace.
 * Without a recording span (tracing off: Effect's server makes a no-op one) it does nothing.
 */
export const annotateRequestSpanIn = (context: Context.Context<never>, requestId: string, notes: RequestNotes) => {
  const span = Context.getOrUndefined(context, Tracer.ParentSpan)
  if (span?._tag !== "Span" || span.status._tag === "Ended") return
  span.attribute("request_id", requestId)
  if (notes.caller !== null) span.attribute("caller", notes.caller)
  if (notes.workspace !== null) span.attribute("workspace", notes.workspace)
}

/**
 * The end of a request's telemetry, in one step: the HTTP metrics under `route` (a template or
 * `unmatched`, never a raw path), the request's id and caller on its server span, its one
 * `http request` log line, and its id on the response (`x-request-id`, and `request_id` in an error
 * envelope). The clock, the metrics and the span are read and written in place rather than each by
 * an effect of its own: every effect is a step of the run loop, and this runs on every request.
 */
export const finishRequest = (
  start: RequestStart,
  route: string,
  response: HttpServerResponse.HttpServerResponse
): Effect.Effect<HttpServerResponse.HttpServerResponse> =>
  Effect.contextWith((context: Context.Context<never>) => {
    const nanos = Context.get(context, Clock.Clock).currentTimeNanosUnsafe() - start.startedNanos
    recordRequestIn(context, start.method, route, response.status, Number(nanos) / 1e9)
    annotateRequestSpanIn(context, start.requestId, start.notes)
    return Effect.as(
      Effect.logInfo("http request").pipe(
        Effect.annotateLogs({
          request_id: start.requestId,
          method: start.method,
          path: start.path,
          status: response.status,
          duration_ms: Number(nanos) / 1e6,
          caller: start.notes.caller,
          workspace: start.notes.workspace
        })
      ),
      withRequestId(response, start.requestId)
    )
  })

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
      Effect.contextWith((context: Context.Context<HttpServerRequest.HttpServerRequest>) => {
        const start = startOf(context)
        return Effect.flatMap(
          Effect.updateContext(httpEffect, (inner: Context.Context<HttpServerRequest.HttpServerRequest>) =>
            requestContext(start, inner)
          ),
          (response) => finishRequest(start, known.has(start.path) ? start.path : "unmatched", response)
        )
      }),
    { global: true }
  )
}
