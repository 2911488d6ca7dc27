import { assert, describe, it } from "@effect/vitest"
import { Api } from "@margin/rest/api"
import { Effect } from "effect"
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
      assert.deepStrictEqual(Object.keys(client).sort(), [...endpoints].sort())
    })
  )

  it("the promise face has the same methods, and close", async () => {
    const client = createClient({ baseUrl: "http://127.0.0.1:1", token: "pck_x" })
    assert.deepStrictEqual(Object.keys(client).sort(), [...endpoints, "close"].sort())
    await client.close()
  })
})
