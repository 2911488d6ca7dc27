import { Caller } from "@margin/edge/auth"
import { Effect, Result } from "effect"
import { Headers, HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { type AdmissionRefusal, agentAdmission, refusalResponse } from "./AgentAdmission.ts"
import { batchCharge } from "./BatchCharge.ts"
import { McpSettings } from "./McpSettings.ts"
import { originForbidden } from "./OriginForbidden.ts"
import { isAllowedOrigin } from "./OriginPolicy.ts"
import { metadataUrl, originOf } from "./ProtectedResource.ts"

const json = (status: number, body: object, headers: Record<string, string> = {}) =>
  HttpServerResponse.jsonUnsafe(body, { status, headers })

/**
 * In front of every /mcp request, before the MCP server reads it: the Origin (403, DNS
 * rebinding: `isAllowedOrigin`), then the API token as REST checks it (401 with WWW-Authenticate naming the RFC 9728
 * metadata, 429 with Retry-After on the token's one budget, 403 workspace), then the plan (403
 * tier_ineligible: MCP needs Max or Enterprise), then the rest of a JSON-RPC batch's budget
 * (`batchCharge`: one unit per message). Scopes are checked per tool, not here: a token
 * sees the tools its scopes allow. Session JWTs are for first-party apps and are refused (401).
 */
export const McpAuthentication = HttpRouter.middleware<{ provides: Caller }>()(
  Effect.gen(function* () {
    const admit = yield* agentAdmission
    const charge = yield* batchCharge
    const settings = yield* McpSettings

    const refusal = (failure: AdmissionRefusal, request: HttpServerRequest.HttpServerRequest) => {
      const { status, headers, body } = refusalResponse(failure)
      if (failure._tag !== "Unauthorized") return json(status, body, headers)
      // RFC 6750 section 3: no error code when no credential was sent at all.
      const challenge = [
        `Bearer resource_metadata="${metadataUrl(originOf(settings, request))}"`,
        ...(failure.reason === "missing" ? [] : [`error="invalid_token"`])
      ].join(", ")
      return json(status, body, { ...headers, "www-authenticate": challenge })
    }

    return (httpEffect) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const origin = request.headers.origin
        if (origin !== undefined && !isAllowedOrigin(settings, origin, request.headers.host)) {
          return originForbidden(origin)
        }
        // The origin is decided here; the MCP server behind checks only its fixed list, so it does not
        // see the header. Replaced before anything reads the body: a request reads its body once.
        const forwarded =
          origin === undefined ? request : request.modify({ headers: Headers.remove(request.headers, "origin") })
        const admitted = yield* Effect.result(
          admit({ authorization: request.headers.authorization, workspaceHeader: request.headers["x-workspace-id"] })
        )
        if (Result.isFailure(admitted)) return refusal(admitted.failure, request)
        const overBudget = yield* charge(forwarded, admitted.success)
        if (overBudget !== undefined) return refusal(overBudget, request)
        const admittedCall = Effect.provideService(httpEffect, Caller, admitted.success)
        return yield* forwarded === request
          ? admittedCall
          : Effect.provideService(admittedCall, HttpServerRequest.HttpServerRequest, forwarded)
      })
  })
)
