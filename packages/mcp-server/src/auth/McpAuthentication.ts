import { Caller } from "@margin/edge/auth"
import { mcpPath, originOf } from "@margin/edge/serving"
import { declaresOtherCharset, utf8Text } from "@margin/edge/wire"
import { Effect, Option, Result, Schema } from "effect"
import * as ByteSize from "effect/ByteSize"
import {
  Headers,
  HttpEffect,
  HttpIncomingMessage,
  HttpRouter,
  HttpServerRequest,
  HttpServerResponse
} from "effect/http"
import { McpSettings } from "../McpSettings.ts"
import { batchCharge } from "../transport/BatchCharge.ts"
import { essentialInitialize } from "../transport/EssentialInitialize.ts"
import { McpSessions, SessionTermination } from "../transport/McpSessions.ts"
import { originForbidden } from "../transport/OriginForbidden.ts"
import { isAllowedOrigin } from "../transport/OriginPolicy.ts"
import { withNegotiatedRevision } from "../transport/SessionRevision.ts"
import { type AdmissionRefusal, agentAdmission, refusalResponse } from "./AgentAdmission.ts"
import { metadataUrl } from "./ProtectedResource.ts"
import { insufficientScopeResponse, missingScope, unauthorizedChallenge } from "./ScopeChallenge.ts"

const json = (status: number, body: object, headers: Record<string, string> = {}) =>
  HttpServerResponse.jsonUnsafe(body, { status, headers })

const sessionHeader = "mcp-session-id"

const resourceOf = (origin: string | undefined) => (origin === undefined ? undefined : `${origin}${mcpPath}`)

const parseJson = Schema.decodeUnknownOption(Schema.fromJsonString(Schema.Unknown))

/** A session that ended (idle, replaced by newer ones, DELETE) or is another token's: the client starts a new one. */
const sessionNotFound = json(404, {
  code: "not_found",
  message:
    "No such MCP session: it ended (idle, or beyond the sessions a token may keep) or is not yours; initialize again."
})

/** Closes the connection: the rest of the body is left unread (as REST's 413). */
const initializeTooLarge = (maxBytes: number) =>
  json(
    413,
    {
      code: "payload_too_large",
      message: `An MCP request without a session (an initialize) may have at most ${maxBytes} bytes.`
    },
    { connection: "close" }
  )

/** A message in another charset than UTF-8: the MCP server would read it as UTF-8 anyway. */
const unsupportedCharset = json(415, {
  code: "unsupported_media_type",
  message: "Send MCP messages as application/json in UTF-8."
})

/** Bytes that are not UTF-8: the MCP server's decoder would store U+FFFD in their place. */
const notUtf8 = json(400, { code: "bad_request", message: "The request body is not valid: it is not UTF-8 text." })

/** What a POST's body must be before the MCP server reads it (read once; the server reads the same bytes). */
const bodyRefusal = Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest) {
  if (declaresOtherCharset(request.headers["content-type"] ?? "")) return unsupportedCharset
  const bytes = yield* Effect.result(request.arrayBuffer)
  // A body that cannot be read (cut off, too large) is the MCP server's to answer: it reads the same failure.
  return Result.isSuccess(bytes) && Option.isNone(utf8Text(bytes.success)) ? notUtf8 : undefined
})

/**
 * In front of every /mcp request, before the MCP server reads it: the Origin (403, DNS
 * rebinding: `isAllowedOrigin`), then the API token as REST checks it (401 with WWW-Authenticate naming the RFC 9728
 * metadata, 429 with Retry-After on the token's one budget, 403 workspace), then the plan (403
 * tier_ineligible: MCP needs Max or Enterprise), then the rest of a JSON-RPC batch's budget
 * (`batchCharge`: one unit per message), then a POST's body: UTF-8 (415 for another charset, 400
 * for bytes that are not UTF-8). Scopes are checked per tool, except one: an OAuth grant calling a
 * tool beyond its scopes gets the step-up 403 here (`ScopeChallenge`), which its client answers by
 * asking the user for more. Session JWTs are for first-party apps and are refused (401).
 * Sessions (`McpSessions`): a request without one (an initialize) may have at most
 * MCP_INITIALIZE_MAX_BYTES (413, checked first); a session id must be live and the token's own
 * (else 404 not_found); a new session may end older ones, per the session limits.
 */
export const McpAuthentication = HttpRouter.middleware<{ provides: Caller }>()(
  Effect.gen(function* () {
    const admit = yield* agentAdmission
    const charge = yield* batchCharge
    const settings = yield* McpSettings

    const refusal = (failure: AdmissionRefusal, request: HttpServerRequest.HttpServerRequest) => {
      const { status, headers, body } = refusalResponse(failure)
      if (failure._tag !== "Unauthorized") return json(status, body, headers)
      // The metadata's URL only from a trusted origin (configuration or a loopback Host).
      const origin = originOf(settings, request)
      const challenge = unauthorizedChallenge(
        origin === undefined ? undefined : metadataUrl(origin),
        failure.reason !== "missing",
        settings.startingScopes ?? undefined
      )
      return json(status, body, { ...headers, "www-authenticate": challenge })
    }

    const sessions = yield* McpSessions
    const initializeMaxBytes = settings.sessions.initializeMaxBytes

    /**
     * A request without a session (an initialize) as the MCP server gets it: undefined when it does
     * not fit `initializeMaxBytes` (announced, or read up to the limit); else, for an initialize,
     * a copy with only what its session needs (`essentialInitialize`), the MCP server keeping the
     * payload as long as the session lives; anything else as sent (its body read once and kept).
     */
    const initializeRequest = Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest) {
      if (Number(request.headers["content-length"] ?? "0") > initializeMaxBytes) return undefined
      const body = yield* Effect.result(
        request.text.pipe(Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(initializeMaxBytes)))
      )
      if (Result.isFailure(body)) {
        const reason = body.failure.reason
        // A body that cannot be read otherwise is the MCP server's to answer (it reads the same failure).
        return reason._tag === "RequestParseError" && reason.reason === "BodyTooLarge" ? undefined : request
      }
      const essential = essentialInitialize(Option.getOrUndefined(parseJson(body.success)))
      if (essential === undefined) return request
      return HttpServerRequest.fromWeb(
        new Request(`http://localhost${request.url}`, {
          method: request.method,
          headers: Headers.remove(request.headers, "content-length"),
          body: JSON.stringify(essential)
        })
      )
    })

    return (httpEffect) =>
      Effect.gen(function* () {
        // This process ending a session itself (McpSessions): as the caller that opened it.
        const owner = yield* SessionTermination
        if (owner !== undefined) return yield* Effect.provideService(httpEffect, Caller, owner)
        // Every answer of /mcp, refusals included, is read as what it says (also without the REST guard).
        yield* HttpEffect.appendPreResponseHandler((_, answered) =>
          Effect.succeed(HttpServerResponse.setHeader(answered, "x-content-type-options", "nosniff"))
        )
        const request = yield* HttpServerRequest.HttpServerRequest
        const origin = request.headers.origin
        if (origin !== undefined && !isAllowedOrigin(settings, origin, request.headers.host)) {
          return originForbidden(origin)
        }
        // The origin is decided here; the MCP server behind checks only its fixed list, so it does not
        // see the header; nor a session's supported revision header (`withNegotiatedRevision`).
        // Replaced before anything reads the body: a request reads its body once.
        const serverHeaders = withNegotiatedRevision(
          origin === undefined ? request.headers : Headers.remove(request.headers, "origin")
        )
        const toServer = serverHeaders === request.headers ? request : request.modify({ headers: serverHeaders })
        const sessionId = request.headers[sessionHeader]
        const forwarded =
          sessionId === undefined && request.method === "POST" ? yield* initializeRequest(toServer) : toServer
        if (forwarded === undefined) return initializeTooLarge(initializeMaxBytes)
        const admitted = yield* Effect.result(
          admit(
            { authorization: request.headers.authorization, workspaceHeader: request.headers["x-workspace-id"] },
            // Without a trusted origin no access token can name this resource: only API tokens pass.
            resourceOf(originOf(settings, request))
          )
        )
        if (Result.isFailure(admitted)) return refusal(admitted.failure, request)
        const overBudget = yield* charge(forwarded, admitted.success)
        if (overBudget !== undefined) return refusal(overBudget, request)
        if (request.method === "POST") {
          const refused = yield* bodyRefusal(toServer)
          if (refused !== undefined) return refused
        }
        const caller = admitted.success
        if (sessionId !== undefined && !(yield* sessions.use(sessionId, caller))) return sessionNotFound
        if (request.method === "POST") {
          const needed = missingScope(yield* Effect.orElseSucceed(forwarded.text, () => ""), caller)
          if (needed !== undefined) {
            const origin = originOf(settings, request)
            return insufficientScopeResponse(origin === undefined ? undefined : metadataUrl(origin), caller, needed)
          }
        }
        const admittedCall = Effect.provideService(httpEffect, Caller, caller)
        const response = yield* forwarded === request
          ? admittedCall
          : Effect.provideService(admittedCall, HttpServerRequest.HttpServerRequest, forwarded)
        if (sessionId !== undefined) {
          if (request.method === "DELETE" && response.status === 204) yield* sessions.closed(sessionId)
          return response
        }
        // An initialize's session id is set on the response after the MCP server answered: seen then.
        yield* HttpEffect.appendPreResponseHandler((_, answered) => {
          const opened = answered.headers[sessionHeader]
          return opened === undefined ? Effect.succeed(answered) : Effect.as(sessions.opened(opened, caller), answered)
        })
        return response
      })
  })
)
