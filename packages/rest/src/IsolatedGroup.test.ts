import { NodeHttpServer } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { serveLean } from "@margin/edge/serving"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { HttpClient } from "effect/http"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { isolatedGroup } from "./IsolatedGroup.ts"

class UseCase extends Context.Service<UseCase, { readonly name: string }>()("margin/test/UseCase") {}

const Probe = Schema.Struct({ closedOver: Schema.String, seenWhileAnswering: Schema.Boolean })

const Api = HttpApi.make("isolated").add(
  HttpApiGroup.make("plain").add(HttpApiEndpoint.get("plain", "/plain", { success: Probe })),
  HttpApiGroup.make("isolated").add(HttpApiEndpoint.get("isolated", "/isolated", { success: Probe }))
)

/** What a handler closed over when built, and whether the use case is in its request's context. */
const probe = (useCase: UseCase["Service"]) =>
  Effect.map(Effect.serviceOption(UseCase), (seen) => ({
    closedOver: useCase.name,
    seenWhileAnswering: Option.isSome(seen)
  }))

// The same handler twice: built as HttpApiBuilder.group would be, and through isolatedGroup.
const Plain = HttpApiBuilder.group(Api, "plain", (handlers) =>
  Effect.map(UseCase, (useCase) => handlers.handle("plain", () => probe(useCase)))
)
const Isolated = isolatedGroup(
  Effect.map(UseCase, (useCase) =>
    HttpApiBuilder.group(Api, "isolated", (handlers) => handlers.handle("isolated", () => probe(useCase)))
  )
)

const server = serveLean(HttpApiBuilder.layer(Api).pipe(Layer.provide([Plain, Isolated])), [], {
  disableListenLog: true
}).pipe(Layer.provideMerge(NodeHttpServer.layerTest), Layer.provide(Layer.succeed(UseCase, { name: "use case" })))

const get = (path: string) =>
  Effect.flatMap(HttpClient.get(path), (response) => Effect.flatMap(response.json, Schema.decodeUnknownEffect(Probe)))

describe("isolatedGroup", () => {
  it.layer(server)((it) => {
    it.effect("serves handlers with what they closed over, without the services the group was built in", () =>
      Effect.gen(function* () {
        assert.deepStrictEqual(yield* get("/isolated"), { closedOver: "use case", seenWhileAnswering: false })
        // Why it exists: HttpApiBuilder gives each request of a plain group the group's whole build context.
        assert.deepStrictEqual(yield* get("/plain"), { closedOver: "use case", seenWhileAnswering: true })
      })
    )
  })
})
