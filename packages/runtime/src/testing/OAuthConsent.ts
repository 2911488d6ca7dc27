import type { Scope } from "@margin/core/access/Scope"
import type { User } from "@margin/core/access/User"
import { OAuthServer } from "@margin/core/oauth/OAuthServer"
import type { Workspace } from "@margin/core/workspaces/Workspace"
import { Effect } from "effect"

/** A PKCE pair: RFC 7636 appendix B's. */
export const pkce = {
  verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk",
  challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
} as const

/**
 * What the consent page does once the user chose, for tests that are about what comes after
 * (tokens, budgets): the authorization request checked, the consent recorded, a code issued for
 * `resource` (the test server's /mcp) with `pkce.challenge`.
 */
export const consentCode = (input: {
  readonly clientId: string
  readonly redirectUri: string
  readonly resource: string
  readonly user: User
  readonly workspace: Workspace
  readonly scopes: ReadonlyArray<Scope>
}) =>
  Effect.gen(function* () {
    const server = yield* OAuthServer
    const client = yield* server.authorizationClient(input.clientId, input.redirectUri)
    const authorization = yield* server.authorizationRequest({
      client,
      redirectUri: input.redirectUri,
      responseType: "code",
      codeChallenge: pkce.challenge,
      codeChallengeMethod: "S256",
      resource: input.resource,
      scope: undefined,
      expectedResource: input.resource
    })
    const { code } = yield* server.consent({
      request: authorization,
      userId: input.user.id,
      workspaceId: input.workspace.id,
      scopes: input.scopes
    })
    return code
  })
