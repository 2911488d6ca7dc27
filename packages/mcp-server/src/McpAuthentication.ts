import { ResourceNotFound, TierIneligible } from "@margin/core/Errors"
import { planLimits } from "@margin/core/Plan"
import { WorkspaceRepository } from "@margin/core/ports/WorkspaceRepository"
import { Authenticate, type IdentificationError } from "@margin/edge/Authenticate"
import { Caller, type CallerShape } from "@margin/edge/Caller"
import { failureCodes, failureResponse } from "@margin/edge/ErrorEnvelope"
import { Effect, Option, Result } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { McpSettings } from "./McpSettings.ts"
import { metadataUrl, originOf } from "./ProtectedResource.ts"

type Refusal = IdentificationError | TierIneligible | ResourceNotFound

const json = (status: number, body: object, headers: Record<string, string> = {}) =>
  HttpServerResponse.jsonUnsafe(body, { status, headers })

/**
 * In front of every /mcp request, before the MCP server reads it: the Origin (403, DNS
 * rebinding), then the API token as REST checks it (401 with WWW-Authenticate naming the RFC 9728
 * metadata, 429 with Retry-After on the token's one budget, 403 workspace), then the plan (403
 * tier_ineligible: MCP needs Max or Enterprise). Scopes are checked per tool, not here: a token
 * sees the tools its scopes allow. Session JWTs are for first-party apps and are refused (401).
 */
export const McpAuthentication = HttpRouter.middleware<{ provides: Caller }>()(
  Effect.gen(function* () {
    const authenticate = yield* Authenticate
    const workspaces = yield* WorkspaceRepository
    const settings = yield* McpSettings

    const admit = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<CallerShape, Refusal> =>
      Effect.gen(function* () {
        const caller = yield* authenticate.identify(
          { authorization: request.headers.authorization, workspaceHeader: request.headers["x-workspace-id"] },
          { sessions: false }
        )
        const workspace = yield* workspaces.get(caller.workspaceId)
        if (Option.isNone(workspace))
          return yield* new ResourceNotFound({ resource: "workspace", id: caller.workspaceId })
        if (!planLimits[workspace.value.plan].mcp) return yield* new TierIneligible({ plan: workspace.value.plan })
        return caller
      })

    const refusal = (failure: Refusal, request: HttpServerRequest.HttpServerRequest) => {
      if (failure._tag === "TierIneligible") {
        return json(403, {
          code: failureCodes.TierIneligible.code,
          message: `The MCP server needs a Max or Enterprise plan; this workspace is on ${failure.plan}.`
        })
      }
      const { status, headers, body } = failureResponse(failure)
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
        if (origin !== undefined && !settings.allowedOrigins.includes(origin)) {
          return json(403, { code: "origin_forbidden", message: `Requests from the origin ${origin} are not allowed.` })
        }
        const admitted = yield* Effect.result(admit(request))
        if (Result.isFailure(admitted)) return refusal(admitted.failure, request)
        return yield* Effect.provideService(httpEffect, Caller, admitted.success)
      })
  })
)
