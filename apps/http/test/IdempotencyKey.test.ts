import { assert, layer } from "@effect/vitest"
import { aWorkspaceWithOwner } from "@margin/edge/testing/World"
import { bodyOf, call, expectError, layer as testServer } from "@margin/runtime/testing/TestServer"
import { Effect } from "effect"

/** docs/api.md, "Idempotency-Key": POST /api/v1/runs made safe to retry, as Stripe does. */

const trigger = (token: string, key: string | undefined, body: unknown = { subset_tags: ["kitchen"] }) =>
  call("POST", "/api/v1/runs", { token, body, headers: key === undefined ? {} : { "idempotency-key": key } })

const runCount = (token: string) =>
  Effect.map(call("GET", "/api/v1/runs?limit=200", { token }), (reply) => {
    const data = bodyOf(reply).data
    return Array.isArray(data) ? data.length : -1
  })

layer(testServer(), { excludeTestServices: true })("Idempotency-Key on POST /api/v1/runs", (it) => {
  it.effect("the same key and body again answers 202 with the first run, and queues no second one", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      const first = yield* trigger(owner.token, "3f9c1d1e-0b7a-4c59-9a57-0d6d3c1e2b11")
      assert.strictEqual(first.status, 202)
      const again = yield* trigger(owner.token, "3f9c1d1e-0b7a-4c59-9a57-0d6d3c1e2b11")
      assert.strictEqual(again.status, 202)
      assert.strictEqual(bodyOf(again).id, bodyOf(first).id)
      assert.strictEqual(yield* runCount(owner.token), 1)
      // Without a key every trigger queues a run, as before.
      assert.notStrictEqual(bodyOf(yield* trigger(owner.token, undefined)).id, bodyOf(first).id)
      assert.strictEqual(yield* runCount(owner.token), 2)
    })
  )

  it.effect("the same key with another body is 422 validation_error at Idempotency-Key", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      assert.strictEqual((yield* trigger(owner.token, "key-a")).status, 202)
      const refused = yield* trigger(owner.token, "key-a", { subset_tags: ["garden"] })
      expectError(refused, 422, "validation_error")
      assert.deepStrictEqual(bodyOf(refused).issues, [
        {
          path: "Idempotency-Key",
          message: "this key was used in the last 24 hours with other subset_tags; send a new key"
        }
      ])
      assert.strictEqual(yield* runCount(owner.token), 1)
    })
  )

  it.effect("keys are per workspace", () =>
    Effect.gen(function* () {
      const [one, two] = [yield* aWorkspaceWithOwner(), yield* aWorkspaceWithOwner()]
      const first = yield* trigger(one.owner.token, "shared-key")
      const other = yield* trigger(two.owner.token, "shared-key")
      assert.deepStrictEqual([first.status, other.status], [202, 202])
      assert.notStrictEqual(bodyOf(first).id, bodyOf(other).id)
    })
  )

  it.effect("a key that is not 1 to 255 visible ASCII characters is 422, naming the header", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      for (const key of ["x".repeat(256), "with space", "caf\u00e9"]) {
        const refused = yield* trigger(owner.token, key)
        expectError(refused, 422, "validation_error")
        assert.include(JSON.stringify(bodyOf(refused).issues), "idempotency-key", key)
      }
      assert.strictEqual(yield* runCount(owner.token), 0)
    })
  )
})
