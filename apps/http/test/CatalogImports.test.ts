import { assert, layer } from "@effect/vitest"
import { aWorkspaceWithOwner, issueToken, seedItem } from "@margin/edge/testing/World"
import { bodyOf, call, expectError, postChunked, layer as testServer } from "@margin/runtime/testing/TestServer"
import { Effect } from "effect"

/** POST /api/v1/catalog/imports and GET it back (docs/api.md, "Catalog imports"). */

const record = (value: unknown): Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null ? Object.fromEntries(Object.entries(value)) : {}

const items = (token: string) =>
  Effect.map(call("GET", "/api/v1/catalog/items?limit=200", { token }), (reply) => {
    const data = bodyOf(reply).data
    return new Map((Array.isArray(data) ? data : []).map((item) => [String(record(item).sku), record(item)]))
  })

const amount = (money: unknown) => record(money).amount_minor

layer(testServer(), { excludeTestServices: true })("catalog imports over REST", (it) => {
  it.effect("a CSV streamed in changes what it mentions, answers 201 with its summary, and reads back by id", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      yield* seedItem(workspace, { sku: "A-1", price: 1000, cost: 550, tags: ["kitchen"], inventory: 10 })
      const importer = yield* issueToken(workspace, owner.user, { scopes: ["catalog:write"] })
      const reply = yield* call("POST", "/api/v1/catalog/imports", {
        token: importer.secret,
        headers: { "content-type": "text/csv" },
        body: "sku,price\nA-1,14.99\nB-1,2.00\n"
      })
      assert.strictEqual(reply.status, 201, reply.text)
      const created = bodyOf(reply)
      assert.deepStrictEqual(
        [created.status, created.format, created.dry_run, created.requested_by],
        ["succeeded", "csv", false, `token:${importer.token.id}`]
      )
      assert.deepStrictEqual(record(created.summary), {
        created: 0,
        updated: 1,
        price_changed: 1,
        cost_changed: 0,
        other_changed: 0,
        unchanged: 0,
        stale_price: 0,
        rejected: [{ line: 3, error: "sku B-1 is not in the catalog: a new item needs title, currency" }],
        rejected_total: 1
      })
      const after = (yield* items(owner.token)).get("A-1")
      assert.deepStrictEqual(
        [amount(after?.price), amount(after?.cost), after?.tags, after?.inventory],
        [1499, 550, ["kitchen"], 10]
      )
      const again = yield* call("GET", `/api/v1/catalog/imports/${String(created.id)}`, { token: owner.token })
      assert.strictEqual(again.status, 200)
      assert.deepStrictEqual(bodyOf(again), created)
      // Another workspace's import is not found.
      const other = yield* aWorkspaceWithOwner()
      expectError(
        yield* call("GET", `/api/v1/catalog/imports/${String(created.id)}`, { token: other.owner.token }),
        404,
        "not_found"
      )
    })
  )

  it.effect("JSON lines, chunked and larger than the 1 MiB of other bodies; a dry run writes nothing", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      const lines = Array.from({ length: 12_000 }, (_, n) =>
        JSON.stringify({ sku: `J-${n}`, title: `Item ${n} with a long enough title`, currency: "USD", price: "1.00" })
      )
      const body = `${lines.join("\n")}\n`
      assert.isAbove(body.length, 1024 * 1024)
      const dry = yield* postChunked("/api/v1/catalog/imports?dry_run=true", owner.token, body, "application/x-ndjson")
      assert.strictEqual(dry.status, 201, dry.text)
      assert.deepStrictEqual([bodyOf(dry).dry_run, record(bodyOf(dry).summary).created], [true, 12_000])
      assert.strictEqual((yield* items(owner.token)).size, 0, "a dry run writes nothing")
      const real = yield* call("POST", "/api/v1/catalog/imports", {
        token: owner.token,
        headers: { "content-type": "application/jsonl" },
        body
      })
      assert.strictEqual(real.status, 201, real.text)
      assert.deepStrictEqual([bodyOf(real).format, record(bodyOf(real).summary).created], ["jsonl", 12_000])
    })
  )

  it.effect("refuses what is not a catalog file: 415 for another media type, 422 for a CSV without sku", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      const json = yield* call("POST", "/api/v1/catalog/imports", { token: owner.token, body: { sku: "A" } })
      expectError(json, 415, "unsupported_media_type")
      const noSku = yield* call("POST", "/api/v1/catalog/imports", {
        token: owner.token,
        headers: { "content-type": "text/csv" },
        body: "title,price\nMug,1.00\n"
      })
      const envelope = expectError(noSku, 422, "validation_error")
      assert.match(JSON.stringify(envelope), /line 1: header: missing column sku/)
      expectError(
        yield* call("POST", "/api/v1/catalog/imports?dry_run=maybe", {
          token: owner.token,
          headers: { "content-type": "text/csv" },
          body: "sku\n"
        }),
        422,
        "validation_error"
      )
      expectError(yield* call("GET", "/api/v1/catalog/imports/imp_nothing", { token: owner.token }), 404, "not_found")
    })
  )
})
