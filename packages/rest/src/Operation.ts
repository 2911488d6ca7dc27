import { isGuarded, type Operation, type RestRoute } from "@margin/core/operations/Operation"
import { RouteAccess, routeAccess } from "@margin/edge/access"
import { Context } from "effect"
import { OpenApi } from "effect/http-api"
import { securityOf } from "./SecuritySchemes.ts"

/** An operation of the catalogue that REST offers. */
export type RestOperation = Operation & { readonly rest: RestRoute }

/**
 * The annotations of one REST endpoint, all taken from its catalogue entry: what it asks of the
 * caller (`RouteAccess`, enforced by `Authentication`) and the same in the OpenAPI document (its
 * summary, the description with the access said in words, the security it accepts, and the
 * `x-margin-*` extensions a machine reads: scope, role, repeat, MCP tool). Deprecation is not
 * here: it is listed in DeprecatedOperations (@margin/edge/wire) and applied by HttpApp
 * (Deprecations.ts).
 */
export const operation = (entry: RestOperation): Context.Context<never> => {
  if (!isGuarded(entry)) return OpenApi.annotations({ summary: entry.summary, description: entry.rest.description })
  const access = routeAccess(entry)
  return Context.merge(
    Context.make(RouteAccess, access),
    OpenApi.annotations({
      summary: entry.summary,
      description: [
        entry.rest.description,
        `Scope: \`${access.scope}\`.`,
        access.session ? "Accepts an API token or a first-party session JWT." : "Accepts an API token.",
        access.mutation ? "Refused with token_unusable when the token's issuing user was deleted." : ""
      ]
        .filter((line) => line !== "")
        .join(" "),
      override: {
        security: securityOf(entry.access.credentials),
        "x-margin-scope": access.scope,
        ...(entry.access.role === null ? {} : { "x-margin-role": entry.access.role }),
        "x-margin-repeat": entry.repeat,
        ...(entry.mcp === null ? {} : { "x-margin-mcp-tool": entry.mcp.name })
      }
    })
  )
}
