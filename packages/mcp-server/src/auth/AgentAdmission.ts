import { AgentAccess } from "@margin/core/access/AgentAccess"
import type { ResourceNotFound, TierIneligible } from "@margin/core/kernel/Errors"
import type { CallerShape } from "@margin/edge/auth"
import { Authenticate, type Credentials, type IdentificationError } from "@margin/edge/auth"
import { type ErrorEnvelope, failureCodes, failureResponse } from "@margin/edge/wire"
import { Effect } from "effect"

export type AdmissionRefusal = IdentificationError | TierIneligible | ResourceNotFound

/**
 * Who may speak MCP at all, checked once per request by each transport: the API token as REST
 * checks it (credential, the token's one rate budget, workspace), then the plan (core's rule,
 * `AgentAccess`: MCP is a Max and Enterprise feature). Over HTTP an OAuth access token issued for `oauthResource` (this
 * server's /mcp URL) is admitted as its grant. Session JWTs are for first-party apps and are refused. Scopes are left
 * to each tool, so that a token sees the tools its scopes allow.
 */
export const agentAdmission = Effect.gen(function* () {
  const authenticate = yield* Authenticate
  const agents = yield* AgentAccess
  // One generator function for every request (a new one per call costs V8 a map and a prototype).
  return Effect.fnUntraced(function* (credentials: Credentials, oauthResource?: string) {
    const caller = yield* authenticate.identify(
      credentials,
      oauthResource === undefined ? { sessions: false } : { sessions: false, oauthResource }
    )
    yield* agents.admit(caller.workspaceId)
    return caller
  }) satisfies (credentials: Credentials, oauthResource?: string) => Effect.Effect<CallerShape, AdmissionRefusal>
})

/**
 * A refusal as REST would answer it (`failureCodes`), except the plan: REST's tier_ineligible is
 * about write-back (422), MCP's about the whole server, so it is a 403 with its own message.
 */
export const refusalResponse = (
  failure: AdmissionRefusal
): { readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: ErrorEnvelope } =>
  failure._tag === "TierIneligible"
    ? {
        status: 403,
        headers: {},
        body: {
          code: failureCodes.TierIneligible.code,
          message: `The MCP server needs a Max or Enterprise plan; this workspace is on ${failure.plan}.`
        }
      }
    : failureResponse(failure)
