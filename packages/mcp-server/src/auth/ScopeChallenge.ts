import { type Scope, scopes } from "@margin/core/access/Scope"
import type { CallerShape } from "@margin/edge/auth"
import { failureResponse, InsufficientScope } from "@margin/edge/wire"
import { Option, Schema } from "effect"
import { HttpServerResponse } from "effect/http"
import { toolAccess } from "../tools/MarginToolkit.ts"

/**
 * The scopes the 401 challenge names for a first authorization by default (MCP 2025-11-25,
 * "Scope Selection Strategy": clients ask for the challenge's `scope` before `scopes_supported`):
 * those of the read-only tools. An agent starts able to look; a tool that changes something asks
 * for its scope when first called (the 403 below), so the user consents to writing when it
 * happens. MCP_STARTING_SCOPES replaces them (McpSettings), for clients that cannot step up.
 */
export const readOnlyScopes: ReadonlyArray<Scope> = scopes.filter((scope) =>
  Array.from(toolAccess.values()).some((access) => access.scope === scope && !access.mutation)
)

/** An RFC 9110 quoted-string: a value cannot close its quotes and add parameters of its own. */
export const quoted = (value: string): string => `"${value.replace(/["\\]/g, (char) => `\\${char}`)}"`

/**
 * The RFC 6750 challenge of a 401: the metadata to discover from (only from a trusted origin,
 * configuration or a loopback Host: `undefined` for any other Host, and then no URL at all), and
 * the scopes to start with.
 */
export const unauthorizedChallenge = (
  resourceMetadata: string | undefined,
  credentialSent: boolean,
  startingScopes: ReadonlyArray<Scope> = readOnlyScopes
): string =>
  `Bearer ${[
    ...(resourceMetadata === undefined ? [] : [`resource_metadata=${quoted(resourceMetadata)}`]),
    `scope=${quoted(startingScopes.join(" "))}`,
    // RFC 6750 section 3: no error code when no credential was sent at all.
    ...(credentialSent ? [`error="invalid_token"`] : [])
  ].join(", ")}`

const ToolCall = Schema.Struct({
  method: Schema.Literal("tools/call"),
  params: Schema.Struct({ name: Schema.String })
})
const decodeToolCall = Schema.decodeUnknownOption(Schema.fromJsonString(ToolCall))

/**
 * The scope a POST's message needs and an OAuth grant's caller lacks: only for one `tools/call`
 * message naming a known tool. A batch (2025-03-26) is left to the tools, which answer each call
 * on its own (an `isError` result naming `required`): one HTTP status cannot answer for several.
 * API tokens (`pck_`) are left to the tools too: their scopes are fixed when the token is made, no
 * authorization can widen them, so a challenge would only break the agent's call.
 */
export const missingScope = (body: string, caller: CallerShape): Scope | undefined => {
  if (caller.credential !== "grant") return undefined
  const call = decodeToolCall(body)
  if (Option.isNone(call)) return undefined
  const access = toolAccess.get(call.value.params.name)
  return access === undefined || caller.scopes.includes(access.scope) ? undefined : access.scope
}

/**
 * The step-up answer (MCP 2025-11-25, "Scope Challenge Handling"; RFC 6750 section 3.1): 403 with
 * `error="insufficient_scope"` and a `scope` of what the grant holds plus what the call needs, so
 * that re-authorizing with it loses nothing already granted. The body is REST's envelope for the
 * same refusal (`insufficient_scope`, `required`).
 */
export const insufficientScopeResponse = (
  resourceMetadata: string | undefined,
  caller: CallerShape,
  required: Scope
) => {
  const wanted = scopes.filter((scope) => scope === required || caller.scopes.includes(scope))
  const { status, body } = failureResponse(new InsufficientScope({ required }))
  return HttpServerResponse.jsonUnsafe(body, {
    status,
    headers: {
      "www-authenticate": [
        `Bearer error="insufficient_scope"`,
        `scope=${quoted(wanted.join(" "))}`,
        ...(resourceMetadata === undefined ? [] : [`resource_metadata=${quoted(resourceMetadata)}`]),
        `error_description="This tool needs the ${required} scope."`
      ].join(", ")
    }
  })
}
