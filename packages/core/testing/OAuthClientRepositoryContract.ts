import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import { OAuthClientId } from "../src/Ids.ts"
import type { IdGenerator } from "../src/ports/IdGenerator.ts"
import { OAuthClientRepository } from "../src/ports/OAuthClientRepository.ts"
import { fixtureNow, minuteMs } from "./Fixtures.ts"
import { anOAuthClient, hashOf } from "./OAuthFixtures.ts"
import { freshId } from "./Seed.ts"

export type OAuthClientContractServices = OAuthClientRepository | IdGenerator

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
  })
