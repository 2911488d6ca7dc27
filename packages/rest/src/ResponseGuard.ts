import { RequestTelemetry } from "@margin/edge/telemetry"
import { transportCodes } from "@margin/edge/wire"
import { Cause, Context, Effect, type Layer } from "effect"
import * as ByteSize from "effect/ByteSize"
import { HttpIncomingMessage, HttpRouter, HttpServerError, HttpServerRequest, HttpServerResponse } from "effect/http"
import type * as Types from "effect/Types"
import type { RouteTable } from "./RouteTable.ts"

export interface ResponseGuardOptions {
  /** Request bodies above this many bytes are refused with 413. */
  readonly maxBodyBytes: number
  /** Routes (by template) that take larger bodies, with their own limit: a catalog import streams a whole file. */
  readonly largeBodyRoutes?: ReadonlyMap<string, number>
  readonly routes: RouteTable
}

const messages: Record<number, string> = {
  400: "The request could not be read.",
  404: "No such route.",
  405: "This method is not allowed on this path.",
  408: "The request took too long to arrive.",
  413: "The request body is too large.",
  415: "Send the body as application/json.",
  500: "Something went wrong on our side; it has been logged.",
  503: "The service is shutting down or unavailable; retry shortly."
}

const transport: Partial<Record<number, string>> = transportCodes

const codeOf = (status: number): string => transport[status] ?? (status >= 500 ? "internal_error" : "bad_request")

const isJson = (response: HttpServerResponse.HttpServerResponse): boolean =>
  (response.headers["content-type"] ?? "").toLowerCase().startsWith("application/json")

/**
 * An error answer with the envelope, keeping the headers it had (Allow, Retry-After...). A 413
 * closes the connection: the body over the limit is left unread, announced (refused up front) or
 * streamed (refused while reading), and its rest would be read as the next request.
 */
const envelope = (status: number, message: string, headers: Record<string, string>) =>
  HttpServerResponse.jsonUnsafe(
    { code: codeOf(status), message },
    { status, headers: status === 413 ? { ...headers, connection: "close" } : headers }
  )

/** The challenge of a 401 that did not set its own (the MCP endpoint and /metrics do). */
const bearerChallenge = 'Bearer realm="api"'

/** Retry-After of a 503 that did not set its own. */
const unavailableRetryAfterSeconds = "5"

// Headers of the original answer that still hold for its envelope; the body's own go with the body.
const keptHeaders = ["allow", "retry-after", "connection"]

const kept = (headers: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(keptHeaders.flatMap((name) => (headers[name] === undefined ? [] : [[name, headers[name]]])))

/**
 * A path with an escaped NUL names nothing: no id holds one (PostgreSQL text cannot), and letting
 * it reach a query would make the database refuse it (a 503) where the client is owed a 404.
 */
const namesNothing = (path: string): boolean => path.includes("%00")

/**
 * The outermost layer of every request: refuses oversized bodies, turns whatever the router
 * or a defect produced (empty 404, text 415, empty 413 / 500) into the `{ code, message }`
 * envelope, tells 405 from 404, gives the request its id (`x-request-id` header, `request_id` in
 * every error body, every log line), counts it in the HTTP metrics by route template and writes
 * the request's one structured log line.
 * Defects are logged here with their cause and answered without it.
 */
export const layer = (options: ResponseGuardOptions): Layer.Layer<never, never, HttpRouter.HttpRouter> => {
  const maxBodySize = ByteSize.bytes(options.maxBodyBytes)

  /** The router's or a defect's answer as the envelope, 405 told from 404, challenge and Retry-After added. */
  const answerOf = (
    method: string,
    path: string,
    answered: HttpServerResponse.HttpServerResponse
  ): HttpServerResponse.HttpServerResponse => {
    let response = answered
    if (response.status >= 400 && !isJson(response)) {
      const allowed = response.status === 404 ? options.routes.allowedMethods(path) : []
      // The router also refuses paths a route's pattern matches (an id over its length limit, a
      // malformed escape): when the request's own method is among the allowed, no such resource.
      response =
        allowed.length > 0 && !allowed.includes(method)
          ? envelope(405, `${method} is not allowed on ${path}; use ${allowed.join(", ")}.`, {
              allow: allowed.join(", ")
            })
          : envelope(response.status, messages[response.status] ?? "The request failed.", kept(response.headers))
    }
    // RFC 9110 requires a challenge with every 401; some HTTP clients fail on a 401 without one.
    if (response.status === 401 && response.headers["www-authenticate"] === undefined) {
      response = HttpServerResponse.setHeader(response, "www-authenticate", bearerChallenge)
    }
    // A 503 (the database or a dependency away) tells clients when to come back.
    if (response.status === 503 && response.headers["retry-after"] === undefined) {
      response = HttpServerResponse.setHeader(response, "retry-after", unavailableRetryAfterSeconds)
    }
    return response
  }

  /** What answers the request: the route, its failures and defects turned into responses (defects logged). */
  const answering = (
    httpEffect: Effect.Effect<
      HttpServerResponse.HttpServerResponse,
      Types.unhandled,
      HttpServerRequest.HttpServerRequest
    >,
    start: RequestTelemetry.RequestStart
  ) =>
    httpEffect.pipe(
      Effect.catchCause((cause) =>
        Effect.flatMap(HttpServerError.causeResponse(cause), ([response, reported]) =>
          response.status >= 500 && !Cause.hasInterruptsOnly(cause)
            ? Effect.as(
                Effect.logError("request failed", reported).pipe(
                  Effect.annotateLogs({ caller: start.notes.caller, workspace: start.notes.workspace })
                ),
                response
              )
            : Effect.succeed(response)
        )
      ),
      // One change of context for the request (each costs a context copy): the body limit, the
      // request's notes, and its id on every log line (authentication adds caller and workspace).
      Effect.updateContext((context: Context.Context<HttpServerRequest.HttpServerRequest>) =>
        Context.add(RequestTelemetry.requestContext(start, context), HttpIncomingMessage.MaxBodySize, maxBodySize)
      )
    )

  return HttpRouter.middleware(
    // Handling every failure here is the point; the declared `unhandled` only satisfies the router's typing.
    // Combinators rather than a generator: every yield is a step of the run loop, on every request.
    (
      httpEffect
    ): Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled, HttpServerRequest.HttpServerRequest> =>
      Effect.contextWith((context: Context.Context<HttpServerRequest.HttpServerRequest>) => {
        const start = RequestTelemetry.startOf(context)
        const declared = Number(
          Context.get(context, HttpServerRequest.HttpServerRequest).headers["content-length"] ?? "0"
        )
        const route = options.routes.templateOf(start.path) ?? "unmatched"
        const refused =
          declared > (options.largeBodyRoutes?.get(route) ?? options.maxBodyBytes)
            ? envelope(413, messages[413] ?? "", {})
            : namesNothing(start.path)
              ? envelope(404, messages[404] ?? "", {})
              : undefined
        return refused !== undefined
          ? RequestTelemetry.finishRequest(start, route, refused)
          : Effect.flatMap(answering(httpEffect, start), (answered) =>
              RequestTelemetry.finishRequest(start, route, answerOf(start.method, start.path, answered))
            )
      }),
    { global: true }
  )
}
