import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { MembershipRepository } from "../access/MembershipRepository.ts"
import { scopes } from "../access/Scope.ts"
import { UserRepository } from "../access/UserRepository.ts"
import { WorkspaceId } from "../kernel/Ids.ts"
import * as MemoryAdapters from "../memory/MemoryAdapters.ts"
import * as CountingOAuthSecrets from "../testing/CountingOAuthSecrets.ts"
import * as StaticClientMetadataDocuments from "../testing/StaticClientMetadataDocuments.ts"
import { seedUser, seedWorkspace, userA, wsA } from "../testing/UseCases.ts"
import type { Plan } from "../workspaces/Plan.ts"
import { maxLiveGrantsPerUser } from "./OAuthGrant.ts"
import { OAuthSecrets } from "./OAuthSecrets.ts"
import { type AuthorizationRequest, OAuthServer } from "./OAuthServer.ts"

const documentUrl = "https://agent.example/oauth/client.json"

const services = OAuthServer.layer.pipe(
  Layer.provideMerge(
    Layer.mergeAll(
      MemoryAdapters.layer,
      CountingOAuthSecrets.layer,
      StaticClientMetadataDocuments.layer({
        [documentUrl]: {
          clientId: documentUrl,
          clientName: "Doc Agent",
          redirectUris: ["http://127.0.0.1:33418/callback"],
          tokenEndpointAuthMethod: "none"
        },
        "https://agent.example/other.json": {
          clientId: documentUrl,
          clientName: "Impostor",
          redirectUris: ["http://127.0.0.1:33418/callback"],
          tokenEndpointAuthMethod: undefined
        },
        "https://agent.example/secret.json": {
          clientId: "https://agent.example/secret.json",
          clientName: "Confidential",
          redirectUris: ["http://127.0.0.1:33418/callback"],
          tokenEndpointAuthMethod: "client_secret_basic"
        }
      })
    )
  )
)

const resource = "https://margin.test/mcp"
const redirectUri = "http://127.0.0.1:33418/callback"
const verifier = "v".repeat(43)

/** A max workspace of userA (its owner), a registered public client and a checked authorization request. */
const setUp = (plan: Plan = "max", workspaceId = wsA) =>
  Effect.gen(function* () {
    const server = yield* OAuthServer
    yield* seedWorkspace(workspaceId, plan)
    yield* UserRepository.use((users) => users.get(userA)).pipe(
      Effect.flatMap((found) => (Option.isNone(found) ? seedUser(userA, true) : Effect.void))
    )
    yield* MembershipRepository.use((members) => members.upsert({ workspaceId, userId: userA, role: "owner" }))
    const { client } = yield* server.register({
      name: "Agent",
      redirectUris: [redirectUri],
      tokenEndpointAuthMethod: "none"
    })
    const checked = yield* server.authorizationClient(client.id, redirectUri)
    const request = yield* server.authorizationRequest({
      client: checked,
      redirectUri,
      responseType: "code",
      codeChallenge: (yield* OAuthSecrets).s256(verifier),
      codeChallengeMethod: "S256",
      resource,
      scope: "runs:read catalog:read",
      expectedResource: resource
    })
    return { server, client, request }
  })

const consentAndExchange = (request: AuthorizationRequest) =>
  Effect.gen(function* () {
    const server = yield* OAuthServer
    const { code, grant } = yield* server.consent({ request, userId: userA, workspaceId: wsA, scopes: ["runs:read"] })
    const tokens = yield* server.exchangeCode({
      client: { clientId: request.client.id, clientSecret: undefined },
      code,
      redirectUri,
      codeVerifier: verifier,
      resource
    })
    return { code, grant, tokens }
  })

const errorOf = <A, R>(effect: Effect.Effect<A, { readonly _tag: string; readonly error?: string }, R>) =>
  Effect.map(Effect.flip(effect), (failure) => failure.error ?? failure._tag)

describe("OAuthServer", () => {
  it.effect("code flow: consent narrows the scopes, the code buys tokens once, the access token finds its grant", () =>
    Effect.gen(function* () {
      const { server, request } = yield* setUp()
      assert.deepStrictEqual(request.scopes, ["runs:read", "catalog:read"])
      const { code, grant, tokens } = yield* consentAndExchange(request)
      assert.deepStrictEqual(grant.scopes, ["runs:read"])
      assert.strictEqual(tokens.scope, "runs:read")
      assert.strictEqual(tokens.token_type, "Bearer")
      assert.deepStrictEqual(yield* server.grantOfAccessToken(tokens.access_token), Option.some(grant))
      assert.isTrue(Option.isNone(yield* server.grantOfAccessToken(tokens.refresh_token)))
      // The replay ends the grant, and with it the tokens the first redemption got.
      const replay = server.exchangeCode({
        client: { clientId: request.client.id, clientSecret: undefined },
        code,
        redirectUri,
        codeVerifier: verifier,
        resource
      })
      assert.strictEqual(yield* errorOf(replay), "invalid_grant")
      assert.isTrue(Option.isNone(yield* server.grantOfAccessToken(tokens.access_token)))
    }).pipe(Effect.provide(services))
  )

  it.effect("the authorization request: exact redirect URI, S256 only, this server's resource, known scopes", () =>
    Effect.gen(function* () {
      const { server, client } = yield* setUp()
      assert.strictEqual(yield* errorOf(server.authorizationClient(client.id, `${redirectUri}/`)), "invalid_request")
      assert.strictEqual(yield* errorOf(server.authorizationClient("mcl_unknown", redirectUri)), "invalid_client")
      const base = {
        client,
        redirectUri,
        responseType: "code",
        codeChallenge: (yield* OAuthSecrets).s256(verifier),
        codeChallengeMethod: "S256",
        resource,
        scope: undefined,
        expectedResource: resource
      }
      assert.strictEqual(
        yield* errorOf(server.authorizationRequest({ ...base, codeChallengeMethod: "plain" })),
        "invalid_request"
      )
      assert.strictEqual(
        yield* errorOf(server.authorizationRequest({ ...base, responseType: "token" })),
        "invalid_request"
      )
      assert.strictEqual(
        yield* errorOf(server.authorizationRequest({ ...base, resource: undefined })),
        "invalid_target"
      )
      assert.strictEqual(
        yield* errorOf(server.authorizationRequest({ ...base, resource: "https://evil.example/mcp" })),
        "invalid_target"
      )
      assert.strictEqual(
        yield* errorOf(server.authorizationRequest({ ...base, scope: "runs:read admin" })),
        "invalid_scope"
      )
      const all = yield* server.authorizationRequest(base)
      assert.deepStrictEqual(all.scopes, scopes)
    }).pipe(Effect.provide(services))
  )

  it.effect("a wrong verifier, another redirect URI or another resource get no tokens", () =>
    Effect.gen(function* () {
      const { server, request } = yield* setUp()
      const attempt = (overrides: { redirectUri?: string; codeVerifier?: string; resource?: string }) =>
        Effect.flatMap(
          server.consent({ request, userId: userA, workspaceId: wsA, scopes: ["runs:read"] }),
          ({ code }) =>
            errorOf(
              server.exchangeCode({
                client: { clientId: request.client.id, clientSecret: undefined },
                code,
                redirectUri,
                codeVerifier: verifier,
                resource,
                ...overrides
              })
            )
        )
      assert.strictEqual(yield* attempt({ codeVerifier: "w".repeat(43) }), "invalid_grant")
      assert.strictEqual(yield* attempt({ redirectUri: "http://127.0.0.1:1/other" }), "invalid_grant")
      assert.strictEqual(yield* attempt({ resource: "https://evil.example/mcp" }), "invalid_target")
    }).pipe(Effect.provide(services))
  )

  it.effect("an expired code gets no tokens", () =>
    Effect.gen(function* () {
      const { server, request } = yield* setUp()
      const { code } = yield* server.consent({ request, userId: userA, workspaceId: wsA, scopes: ["runs:read"] })
      yield* TestClock.adjust("61 seconds")
      const late = server.exchangeCode({
        client: { clientId: request.client.id, clientSecret: undefined },
        code,
        redirectUri,
        codeVerifier: verifier,
        resource
      })
      assert.strictEqual(yield* errorOf(late), "invalid_grant")
    }).pipe(Effect.provide(services))
  )

  it.effect("refresh rotates; a reused refresh token revokes the grant and every token of it", () =>
    Effect.gen(function* () {
      const { server, request } = yield* setUp()
      const { tokens } = yield* consentAndExchange(request)
      const client = { clientId: request.client.id, clientSecret: undefined }
      const rotated = yield* server.refresh({ client, refreshToken: tokens.refresh_token, scope: undefined, resource })
      assert.notStrictEqual(rotated.refresh_token, tokens.refresh_token)
      assert.isTrue(Option.isSome(yield* server.grantOfAccessToken(rotated.access_token)))
      const reuse = server.refresh({ client, refreshToken: tokens.refresh_token, scope: undefined, resource })
      assert.strictEqual(yield* errorOf(reuse), "invalid_grant")
      assert.isTrue(Option.isNone(yield* server.grantOfAccessToken(rotated.access_token)))
      const afterwards = server.refresh({ client, refreshToken: rotated.refresh_token, scope: undefined, resource })
      assert.strictEqual(yield* errorOf(afterwards), "invalid_grant")
    }).pipe(Effect.provide(services))
  )

  it.effect("a refused refresh (scope not granted, unknown scope, other resource, other client) spends nothing", () =>
    Effect.gen(function* () {
      const { server, request } = yield* setUp()
      const { tokens } = yield* consentAndExchange(request)
      const client = { clientId: request.client.id, clientSecret: undefined }
      const refresh = (overrides: { scope?: string; resource?: string; clientId?: string }) =>
        server.refresh({
          client: { ...client, ...(overrides.clientId === undefined ? {} : { clientId: overrides.clientId }) },
          refreshToken: tokens.refresh_token,
          scope: overrides.scope,
          resource: overrides.resource ?? resource
        })
      assert.strictEqual(yield* errorOf(refresh({ scope: "catalog:read" })), "invalid_scope")
      assert.strictEqual(yield* errorOf(refresh({ scope: "admin" })), "invalid_scope")
      assert.strictEqual(yield* errorOf(refresh({ resource: "https://evil.example/mcp" })), "invalid_target")
      const other = yield* server.register({
        name: "Other",
        redirectUris: [redirectUri],
        tokenEndpointAuthMethod: "none"
      })
      assert.strictEqual(yield* errorOf(refresh({ clientId: other.client.id })), "invalid_grant")
      // The access token still works, and the correct retry rotates.
      assert.isTrue(Option.isSome(yield* server.grantOfAccessToken(tokens.access_token)))
      const rotated = yield* refresh({ scope: "runs:read" })
      assert.isTrue(Option.isSome(yield* server.grantOfAccessToken(rotated.access_token)))
    }).pipe(Effect.provide(services))
  )

  it.effect("a failed code redemption (wrong verifier, other client, other redirect) spends nothing", () =>
    Effect.gen(function* () {
      const { server, request } = yield* setUp()
      const { code } = yield* server.consent({ request, userId: userA, workspaceId: wsA, scopes: ["runs:read"] })
      const other = yield* server.register({
        name: "Other",
        redirectUris: [redirectUri],
        tokenEndpointAuthMethod: "none"
      })
      const exchange = (overrides: { clientId?: string; codeVerifier?: string; redirectUri?: string }) =>
        server.exchangeCode({
          client: { clientId: overrides.clientId ?? request.client.id, clientSecret: undefined },
          code,
          redirectUri: overrides.redirectUri ?? redirectUri,
          codeVerifier: overrides.codeVerifier ?? verifier,
          resource
        })
      // Whoever saw the code tries it first: refused, and the code is still the client's.
      assert.strictEqual(yield* errorOf(exchange({ codeVerifier: "w".repeat(43) })), "invalid_grant")
      assert.strictEqual(yield* errorOf(exchange({ clientId: other.client.id })), "invalid_grant")
      assert.strictEqual(yield* errorOf(exchange({ redirectUri: "http://127.0.0.1:1/other" })), "invalid_grant")
      const tokens = yield* exchange({})
      assert.isTrue(Option.isSome(yield* server.grantOfAccessToken(tokens.access_token)))
      // Once redeemed, a try without the verifier is refused and ends nothing: only a real replay
      // (this client, the right verifier: the code and its verifier leaked) revokes the grant.
      assert.strictEqual(yield* errorOf(exchange({ codeVerifier: "w".repeat(43) })), "invalid_grant")
      assert.strictEqual(yield* errorOf(exchange({ clientId: other.client.id })), "invalid_grant")
      assert.isTrue(Option.isSome(yield* server.grantOfAccessToken(tokens.access_token)))
      assert.strictEqual(yield* errorOf(exchange({})), "invalid_grant")
      assert.isTrue(Option.isNone(yield* server.grantOfAccessToken(tokens.access_token)))
    }).pipe(Effect.provide(services))
  )

  it.effect("revocation: an access token alone, a refresh token with its grant; unknown tokens are no error", () =>
    Effect.gen(function* () {
      const { server, request } = yield* setUp()
      const client = { clientId: request.client.id, clientSecret: undefined }
      const { tokens } = yield* consentAndExchange(request)
      yield* server.revoke({ client, token: tokens.access_token })
      assert.isTrue(Option.isNone(yield* server.grantOfAccessToken(tokens.access_token)))
      const fresh = yield* server.refresh({ client, refreshToken: tokens.refresh_token, scope: undefined, resource })
      assert.isTrue(Option.isSome(yield* server.grantOfAccessToken(fresh.access_token)))
      yield* server.revoke({ client, token: fresh.refresh_token })
      assert.isTrue(Option.isNone(yield* server.grantOfAccessToken(fresh.access_token)))
      yield* server.revoke({ client, token: "mat_unknown" })
    }).pipe(Effect.provide(services))
  )

  it.effect("consent needs a member of a Max or Enterprise workspace and at least one scope", () =>
    Effect.gen(function* () {
      const free = WorkspaceId.make("ws_free")
      const { server, request } = yield* setUp("free", free)
      const onFree = server.consent({ request, userId: userA, workspaceId: free, scopes: ["runs:read"] })
      assert.strictEqual(yield* errorOf(onFree), "access_denied")
      const elsewhere = server.consent({
        request,
        userId: userA,
        workspaceId: WorkspaceId.make("ws_other"),
        scopes: ["runs:read"]
      })
      assert.strictEqual(yield* errorOf(elsewhere), "access_denied")
      yield* seedWorkspace(wsA, "max")
      yield* MembershipRepository.use((members) => members.upsert({ workspaceId: wsA, userId: userA, role: "viewer" }))
      const none = server.consent({ request, userId: userA, workspaceId: wsA, scopes: [] })
      assert.strictEqual(yield* errorOf(none), "invalid_scope")
      const wider = server.consent({ request, userId: userA, workspaceId: wsA, scopes: ["runs:trigger"] })
      assert.strictEqual(yield* errorOf(wider), "invalid_scope")
    }).pipe(Effect.provide(services))
  )

  it.effect("registering clients does not multiply a user's budgets: beyond 10 live grants the oldest end", () =>
    Effect.gen(function* () {
      const { server, request } = yield* setUp()
      const first = yield* consentAndExchange(request)
      const later: Array<string> = []
      for (let n = 0; n < maxLiveGrantsPerUser; n++) {
        yield* TestClock.adjust("1 second")
        const { client } = yield* server.register({
          name: `Agent ${n}`,
          redirectUris: [redirectUri],
          tokenEndpointAuthMethod: "none"
        })
        const { grant } = yield* server.consent({
          request: { ...request, client },
          userId: userA,
          workspaceId: wsA,
          scopes: ["runs:read"]
        })
        later.push(grant.id)
      }
      const live = (yield* server.listGrants({ userId: userA })).filter((grant) => grant.revokedAt === null)
      assert.strictEqual(live.length, maxLiveGrantsPerUser)
      assert.sameMembers(
        live.map((grant) => grant.id),
        later
      )
      // The oldest grant ended, with its tokens.
      assert.isTrue(Option.isNone(yield* server.grantOfAccessToken(first.tokens.access_token)))
    }).pipe(Effect.provide(services))
  )

  it.effect("two grants of one user are two budgets' subjects: one per (user, client, workspace)", () =>
    Effect.gen(function* () {
      const { server, request } = yield* setUp()
      const first = yield* consentAndExchange(request)
      const second = yield* setUp("max", WorkspaceId.make("ws_second"))
      const other = yield* server.consent({
        request: second.request,
        userId: userA,
        workspaceId: WorkspaceId.make("ws_second"),
        scopes: ["runs:read"]
      })
      assert.notStrictEqual(first.grant.id, other.grant.id)
      const again = yield* server.consent({ request, userId: userA, workspaceId: wsA, scopes: ["catalog:read"] })
      assert.strictEqual(again.grant.id, first.grant.id)
      assert.deepStrictEqual(again.grant.scopes, ["catalog:read"])
      assert.strictEqual((yield* server.listGrants({ userId: userA })).length, 2)
    }).pipe(Effect.provide(services))
  )

  it.effect("a URL client_id is read from its metadata document, which must name itself and be public", () =>
    Effect.gen(function* () {
      const server = yield* OAuthServer
      const client = yield* server.authorizationClient(documentUrl, redirectUri)
      assert.strictEqual(client.metadataUrl, documentUrl)
      assert.strictEqual(client.name, "Doc Agent")
      assert.strictEqual(
        yield* errorOf(server.authorizationClient(documentUrl, "http://127.0.0.1:1/x")),
        "invalid_request"
      )
      assert.strictEqual(
        yield* errorOf(server.authorizationClient("https://agent.example/other.json", redirectUri)),
        "invalid_client"
      )
      assert.strictEqual(
        yield* errorOf(server.authorizationClient("https://agent.example/secret.json", redirectUri)),
        "invalid_client"
      )
      // An address the fetcher refuses (a private one, say): the client cannot be used.
      assert.strictEqual(
        yield* errorOf(server.authorizationClient("https://10.0.0.1/client.json", redirectUri)),
        "invalid_client"
      )
    }).pipe(Effect.provide(services))
  )
})
