import { RouteAccess, type RouteAccessShape } from "@margin/edge/access"
import { Context } from "effect"
import { OpenApi } from "effect/http-api"
import { bearerSecurity } from "./Authentication.ts"

/**
 * The annotations of one /api/v1 operation: what it asks of the caller (enforced by
 * `Authentication`) and the same said in the OpenAPI description. Deprecation is not here: it is
 * listed in DeprecatedOperations (@margin/edge/wire) and applied by HttpApp (Deprecations.ts).
 */
export const operation = (access: RouteAccessShape, description: string): Context.Context<never> =>
  Context.merge(
    Context.make(RouteAccess, access),
    OpenApi.annotations({
      transform: bearerSecurity,
      description: [
        description,
        `Scope: \`${access.scope}\`.`,
        access.session ? "Accepts an API token or a first-party session JWT." : "Accepts an API token.",
        access.mutation ? "Refused with token_unusable when the token's issuing user was deleted." : ""
      ]
        .filter((line) => line !== "")
        .join(" ")
    })
  )
