import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import type { UserRepository } from "../access/UserRepository.ts"
import type { IdGenerator } from "../kernel/IdGenerator.ts"
import { OAuthClientId } from "../kernel/Ids.ts"
import { OAuthClientRepository } from "../oauth/OAuthClientRepository.ts"
import { OAuthGrantRepository } from "../oauth/OAuthGrantRepository.ts"
import type { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import { fixtureNow, minuteMs } from "./Fixtures.ts"
import { anOAuthClient, hashOf, seedGrant, seedOAuthClient } from "./OAuthFixtures.ts"
import { freshId } from "./Seed.ts"

export type OAuthClientContractServices =
  | OAuthClientRepository
  | OAuthGrantRepository
  | UserRepository
  | WorkspaceRepository
  | IdGenerator

/** The OAuthClientRepository port's contract: every adapter must pass it. */
export const oauthClientRepositoryContract = <E>(name: string, services: Layer.Layer<OAuthClientContractServices, E>) =>
  layer(services)(`OAuthClientRepository contract (${name})`, (it) => {
    it.effect("save then get, with and without a secret hash; an unknown id finds nothing", () =>
      Effect.gen(function* () {
        const clients = yield* OAuthClientRepository
        const id = yield* freshId("oauthClient", OAuthClientId.make)
        const confidential = anOAuthClient({
          id,
          redirectUris: ["https://agent.example/cb", "http://127.0.0.1:9/cb"],
          tokenEndpointAuthMethod: "client_secret_post"
        })
        yield* clients.save(confidential, hashOf(id))
        assert.deepStrictEqual(yield* clients.get(id), Option.some({ client: confidential, secretHash: hashOf(id) }))
        const publicId = yield* freshId("oauthClient", OAuthClientId.make)
        const open = anOAuthClient({ id: publicId })
        yield* clients.save(open, null)
        assert.deepStrictEqual(yield* clients.get(publicId), Option.some({ client: open, secretHash: null }))
        assert.isTrue(Option.isNone(yield* clients.get(yield* freshId("oauthClient", OAuthClientId.make))))
      })
    )

    it.effect("a metadata-document client saved again takes the new document and keeps its first createdAt", () =>
      Effect.gen(function* () {
        const clients = yield* OAuthClientRepository
        const suffix = yield* freshId("oauthClient", (id) => id)
        const url = `https://agent.example/clients/${suffix}.json`
        const first = anOAuthClient({ id: OAuthClientId.make(url), metadataUrl: url, name: "Agent v1" })
        yield* clients.save(first, null)
        const second = {
          ...first,
          name: "Agent v2",
          redirectUris: ["https://agent.example/cb2"],
          createdAt: fixtureNow + minuteMs
        }
        yield* clients.save(second, null)
        assert.deepStrictEqual(
          yield* clients.get(first.id),
          Option.some({ client: { ...second, createdAt: fixtureNow }, secretHash: null })
        )
      })
    )

    it.effect("deleteUnused deletes the clients older than the cutoff that no grant names, and only those", () =>
      Effect.gen(function* () {
        const clients = yield* OAuthClientRepository
        const cutoff = fixtureNow + 1
        const unused = yield* seedOAuthClient({ createdAt: fixtureNow - minuteMs })
        const young = yield* seedOAuthClient({ createdAt: cutoff })
        const granted = yield* seedGrant()
        const revoked = yield* seedGrant()
        yield* OAuthGrantRepository.use((grants) => grants.revoke(revoked.id, fixtureNow))
        assert.isAtLeast(yield* clients.deleteUnused(cutoff), 1)
        assert.isTrue(Option.isNone(yield* clients.get(unused.id)))
        assert.isTrue(Option.isSome(yield* clients.get(young.id)))
        assert.isTrue(Option.isSome(yield* clients.get(granted.clientId)))
        assert.isTrue(Option.isSome(yield* clients.get(revoked.clientId)))
        assert.strictEqual(yield* clients.deleteUnused(cutoff), 0)
      })
    )
  })
