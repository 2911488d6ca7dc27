import type { Credential } from "@margin/core/operations/Operation"
import { Predicate } from "effect"

/**
 * The OpenAPI security schemes of /api/v1, one per credential an operation may accept. Both are
 * bearer credentials read by `Authentication` (a plain middleware: no HttpApiSecurity declares
 * them, so the document gets them here), told apart by their form: an API token starts with `pck_`.
 * The scheme name is written lowercase, as the IANA registry does (some generators' validators
 * refuse `Bearer`); the header's own word is matched without regard to case either way.
 */
export const securitySchemes: Readonly<Record<Credential, Readonly<Record<string, string>>>> = {
  token: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "pck_…",
    description:
      "A workspace API token (Authorization: Bearer pck_…): bound to one workspace, carrying scopes; every /api/v1 operation accepts one."
  },
  session: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description:
      "A first-party session JWT of the identity provider, accepted only where an operation says so (approve, reject, workspace status); a user of more than one workspace names it in x-workspace-id."
  }
}

/** The name each scheme has in the document's components. */
export const schemeNames: Readonly<Record<Credential, string>> = { token: "apiToken", session: "sessionJwt" }

/** An operation's `security`: any one of the credentials it accepts. */
export const securityOf = (
  credentials: ReadonlyArray<Credential>
): ReadonlyArray<Record<string, ReadonlyArray<never>>> =>
  credentials.map((credential) => ({ [schemeNames[credential]]: [] }))

/** The OpenAPI document with both schemes among its security schemes (an API-level transform). */
export const withSecuritySchemes = (spec: Record<string, unknown>): Record<string, unknown> => {
  const components = Predicate.isObject(spec.components) ? spec.components : {}
  const schemes = Predicate.isObject(components.securitySchemes) ? components.securitySchemes : {}
  return {
    ...spec,
    components: {
      ...components,
      securitySchemes: {
        ...schemes,
        [schemeNames.token]: securitySchemes.token,
        [schemeNames.session]: securitySchemes.session
      }
    }
  }
}
