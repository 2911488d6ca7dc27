/**
 * Builders of the OAuth entities, consistent with Fixtures' workspace and user, and the seeding of
 * them through the ports for the contract suites.
 */
import { Effect } from "effect"
import { scopes } from "../access/Scope.ts"
import { GrantId, OAuthClientId } from "../kernel/Ids.ts"
import type { AuthorizationCode } from "../oauth/AuthorizationCode.ts"
import type { OAuthClient } from "../oauth/OAuthClient.ts"
import { OAuthClientRepository } from "../oauth/OAuthClientRepository.ts"
import type { OAuthGrant } from "../oauth/OAuthGrant.ts"
import { OAuthGrantRepository } from "../oauth/OAuthGrantRepository.ts"
import type { OAuthToken } from "../oauth/OAuthToken.ts"
import { hexOf } from "./CountingOAuthSecrets.ts"
import { fixtureIds, fixtureNow, hourMs, minuteMs } from "./Fixtures.ts"
import { freshId, seedUser, seedWorkspace } from "./Seed.ts"

export const oauthFixtureIds = {
  client: OAuthClientId.make("mcl_fixture"),
  grant: GrantId.make("grt_fixture")
} as const

export const fixtureResource = "https://margin.fixture.example/mcp"
export const fixtureRedirectUri = "http://127.0.0.1:33418/callback"

export const anOAuthClient = (overrides: Partial<OAuthClient> = {}): OAuthClient => ({
  id: oauthFixtureIds.client,
  name: "Fixture Agent",
  redirectUris: [fixtureRedirectUri],
  metadataUrl: null,
  tokenEndpointAuthMethod: "none",
  createdAt: fixtureNow,
  ...overrides
})

export const aGrant = (overrides: Partial<OAuthGrant> = {}): OAuthGrant => ({
  id: oauthFixtureIds.grant,
  userId: fixtureIds.user,
  clientId: oauthFixtureIds.client,
  workspaceId: fixtureIds.workspace,
  scopes: [...scopes],
  resource: fixtureResource,
  createdAt: fixtureNow,
  revokedAt: null,
  lastUsedAt: null,
  ...overrides
})

export const anAuthorizationCode = (overrides: Partial<AuthorizationCode> = {}): AuthorizationCode => ({
  grantId: oauthFixtureIds.grant,
  clientId: oauthFixtureIds.client,
  redirectUri: fixtureRedirectUri,
  codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
  scopes: [...scopes],
  resource: fixtureResource,
  createdAt: fixtureNow,
  expiresAt: fixtureNow + minuteMs,
  usedAt: null,
  ...overrides
})

export const anOAuthToken = (overrides: Partial<OAuthToken> = {}): OAuthToken => ({
  grantId: oauthFixtureIds.grant,
  kind: "refresh",
  createdAt: fixtureNow,
  expiresAt: fixtureNow + hourMs,
  usedAt: null,
  revokedAt: null,
  ...overrides
})

/** A distinct 64-hex-digit stand-in for a secret's SHA-256, derived from an id. */
export const hashOf = (id: string, salt = ""): string => hexOf(`${salt}${id}`)

/** A stored public client with a fresh id. */
export const seedOAuthClient = Effect.fnUntraced(function* (overrides: Partial<OAuthClient> = {}) {
  const client = anOAuthClient({ id: yield* freshId("oauthClient", OAuthClientId.make), ...overrides })
  yield* OAuthClientRepository.use((clients) => clients.save(client, null))
  return client
})

/** A stored live grant of a fresh user, client and workspace. */
export const seedGrant = Effect.fnUntraced(function* (overrides: Partial<OAuthGrant> = {}) {
  const workspace = yield* seedWorkspace()
  const user = yield* seedUser()
  const client = yield* seedOAuthClient()
  const id = yield* freshId("grant", GrantId.make)
  const fresh = aGrant({ id, userId: user.id, clientId: client.id, workspaceId: workspace.id, ...overrides })
  return yield* OAuthGrantRepository.use((grants) => grants.consent(fresh))
})
