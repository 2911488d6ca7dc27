import { NodeHttpServer } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, FileSystem, Layer, Option, Path } from "effect"
import { HttpClient, HttpPlatform, HttpRouter, HttpServerResponse } from "effect/http"
import { SqlClient } from "effect/sql/SqlClient"
import { leanRequestContext, serveLean } from "./ServeLean.ts"

class BuildTimeOnly extends Context.Service<BuildTimeOnly, { readonly name: string }>()("margin/test/BuildTimeOnly") {}
class ReadWhileAnswering extends Context.Service<ReadWhileAnswering, { readonly name: string }>()(
  "margin/test/ReadWhileAnswering"
) {}
class NotOurs extends Context.Service<NotOurs, { readonly name: string }>()("platform/test/NotOurs") {}

describe("leanRequestContext", () => {
  it("drops our services that are not read while answering, and keeps every other", () => {
    const full = Context.make(BuildTimeOnly, { name: "build" }).pipe(
      Context.add(ReadWhileAnswering, { name: "request" }),
      Context.add(NotOurs, { name: "platform" })
    )
    const lean = leanRequestContext(full, [ReadWhileAnswering])
    assert.deepStrictEqual([...lean.mapUnsafe.keys()].sort(), [NotOurs.key, ReadWhileAnswering.key].sort())
    assert.deepStrictEqual(leanRequestContext(full, []).mapUnsafe.size, 1)
  })

  it("drops the platform's services that only the layers use, unless a route reads one while answering", () => {
    // Only the keys matter here: nothing reads these stand-ins.
    const full = Context.makeUnsafe<never>(
      new Map<string, unknown>([
        [FileSystem.FileSystem.key, "files"],
        [Path.Path.key, "paths"],
        [HttpPlatform.HttpPlatform.key, "file responses"],
        [SqlClient.key, "sql"],
        [NotOurs.key, "platform"]
      ])
    )
    assert.deepStrictEqual([...leanRequestContext(full, []).mapUnsafe.keys()], [NotOurs.key])
    assert.deepStrictEqual(
      [...leanRequestContext(full, [SqlClient]).mapUnsafe.keys()].sort(),
      [NotOurs.key, SqlClient.key].sort()
    )
  })
})

// A route that closes over a service when built, reads another while answering, and looks for the first.
const routes = HttpRouter.use((router) =>
  Effect.gen(function* () {
    const built = yield* BuildTimeOnly
    yield* router.add(
      "GET",
      "/probe",
      Effect.gen(function* () {
        const read = yield* ReadWhileAnswering
        const visible = yield* Effect.serviceOption(BuildTimeOnly)
        const platform = yield* Effect.serviceOption(NotOurs)
        return HttpServerResponse.jsonUnsafe({
          built: built.name,
          read: read.name,
          buildTimeVisible: Option.isSome(visible),
          platform: Option.getOrNull(Option.map(platform, (service) => service.name))
        })
      })
    )
  })
)

const server = serveLean(routes, [ReadWhileAnswering], { disableListenLog: true }).pipe(
  Layer.provideMerge(NodeHttpServer.layerTest),
  Layer.provide(Layer.succeed(BuildTimeOnly, { name: "build" })),
  Layer.provide(Layer.succeed(ReadWhileAnswering, { name: "request" })),
  Layer.provide(Layer.succeed(NotOurs, { name: "platform" }))
)

describe("serveLean", () => {
  it.layer(server)((it) => {
    it.effect("answers with what routes took when built and read while answering, and nothing else of ours", () =>
      Effect.gen(function* () {
        const response = yield* HttpClient.get("/probe")
        assert.deepStrictEqual(yield* response.json, {
          built: "build",
          read: "request",
          buildTimeVisible: false,
          platform: "platform"
        })
      })
    )
  })
})
