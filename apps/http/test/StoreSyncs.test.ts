import { assert, layer } from "@effect/vitest"
import { StoreSyncJobs } from "@margin/core/stores/StoreSyncJobs"
import { usd } from "@margin/core/testing/Fixtures"
import { ScriptedStoreCatalog } from "@margin/core/testing/ScriptedStoreCatalog"
import { aWorkspaceWithOwner, issueToken, seedItem } from "@margin/edge/testing/World"
import { bodyOf, call, expectError, layer as testServer } from "@margin/runtime/testing/TestServer"
import { Effect } from "effect"

/** POST /api/v1/store/syncs and GET it back (docs/api.md, "Store syncs"); a worker does the sync. */

const record = (value: unknown): Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null ? Object.fromEntries(Object.entries(value)) : {}

layer(testServer(), { excludeTestServices: true })("store syncs over REST", (it) => {
  it.effect("POST queues a sync (202), the worker does it, GET answers its status and summary", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      yield* seedItem(workspace, { sku: "A-1", price: 1000, cost: 550 })
      yield* ScriptedStoreCatalog.use((store) =>
        store.put(workspace.id, [
          { updatedAt: 0, variant: { sku: "A-1", variantRef: "A-1", currency: usd, price: "12.00" } },
          { updatedAt: 0, variant: { sku: "B-1", variantRef: "B-1", title: "Bowl", currency: usd, price: "3.00" } }
        ])
      )
      const writer = yield* issueToken(workspace, owner.user, { scopes: ["catalog:write", "catalog:read"] })
      const started = yield* call("POST", "/api/v1/store/syncs", { token: writer.secret })
      assert.strictEqual(started.status, 202, started.text)
      const queued = bodyOf(started)
      assert.deepStrictEqual(
        [queued.status, queued.trigger, queued.slot_at, queued.summary, queued.requested_by],
        ["queued", "manual", null, null, `token:${writer.token.id}`]
      )
      // While it waits, another POST answers the same sync.
      const again = yield* call("POST", "/api/v1/store/syncs", { token: writer.secret })
      assert.deepStrictEqual([again.status, bodyOf(again).id], [202, queued.id])
      yield* StoreSyncJobs.use((syncs) => syncs.executeNext("test-worker"))
      const read = yield* call("GET", `/api/v1/store/syncs/${String(queued.id)}`, { token: writer.secret })
      assert.strictEqual(read.status, 200, read.text)
      const done = bodyOf(read)
      assert.deepStrictEqual([done.status, done.read, done.error, done.run_id], ["succeeded", "full", null, null])
      assert.deepStrictEqual(record(done.summary), {
        created: 1,
        updated: 1,
        price_changed: 1,
        cost_changed: 0,
        other_changed: 0,
        unchanged: 0,
        stale_price: 0,
        rejected: [],
        rejected_total: 0
      })
      // Another workspace's sync is not found.
      const other = yield* aWorkspaceWithOwner()
      expectError(
        yield* call("GET", `/api/v1/store/syncs/${String(queued.id)}`, { token: other.owner.token }),
        404,
        "not_found"
      )
    })
  )

  it.effect("refused without a connected store (422), without catalog:write (403)", () =>
    Effect.gen(function* () {
      const storeless = yield* aWorkspaceWithOwner({ store: false })
      expectError(
        yield* call("POST", "/api/v1/store/syncs", { token: storeless.owner.token }),
        422,
        "no_commerce_integration"
      )
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const reader = yield* issueToken(workspace, owner.user, { scopes: ["catalog:read"] })
      expectError(yield* call("POST", "/api/v1/store/syncs", { token: reader.secret }), 403, "insufficient_scope")
    })
  )
})
