import { assert, describe, it } from "@effect/vitest"
import { Api } from "@margin/rest/api"
import { Effect, Layer } from "effect"
import { HttpClient, HttpClientResponse } from "effect/http"
import { HttpApi } from "effect/http-api"
import { MarginClient } from "./MarginClient.ts"
import { createClient } from "./PromiseClient.ts"

/** Both faces offer every operation of the API definition, by its identifier: a new endpoint without a method fails here. */
describe("MarginClient", () => {
  const endpoints: Array<string> = []
  HttpApi.reflect(Api, { onGroup: () => {}, onEndpoint: ({ endpoint }) => endpoints.push(endpoint.identifier) })

  it.effect("the Effect face has a method per endpoint of @margin/rest/api", () =>
    Effect.gen(function* () {
      const client = yield* MarginClient.use(Effect.succeed).pipe(
        Effect.provide(MarginClient.layerFetch({ baseUrl: "http://127.0.0.1:1", token: "pck_x" }))
      )
      assert.isAbove(endpoints.length, 0)
      assert.deepStrictEqual(Object.keys(client).sort(), [...endpoints, "paginate"].sort())
    })
  )

  it("the promise face has the same methods, and close", async () => {
    const client = createClient({ baseUrl: "http://127.0.0.1:1", token: "pck_x" })
    assert.deepStrictEqual(Object.keys(client).sort(), [...endpoints, "paginate", "close"].sort())
    await client.close()
  })

  /** A client whose every request is answered 200 with `body`: what a server outside the definition would send. */
  const answering = (body: unknown) =>
    MarginClient.layer({ baseUrl: "http://margin.test", token: "pck_x" }).pipe(
      Layer.provide(
        Layer.succeed(
          HttpClient.HttpClient,
          HttpClient.make((request) =>
            Effect.succeed(
              HttpClientResponse.fromWeb(
                request,
                new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } })
              )
            )
          )
        )
      )
    )

  it.effect("a success body the definition refuses (an enum value it does not know) is an UnexpectedResponse", () =>
    Effect.gen(function* () {
      const error = yield* MarginClient.use((client) => Effect.flip(client.getRun("run_1"))).pipe(
        Effect.provide(answering({ id: "run_1", status: "paused_for_lunch" }))
      )
      assert.strictEqual(error._tag, "UnexpectedResponse")
      if (error._tag !== "UnexpectedResponse") return
      assert.isNull(error.status)
      assert.match(error.message, /does not match the API/)
    })
  )
})
