import { assert, layer } from "@effect/vitest"
import { StoreConnectionRepository } from "@margin/core/stores/StoreConnectionRepository"
import { StoreCredentials } from "@margin/core/stores/StoreCredentials"
import { aStoreConnection } from "@margin/core/testing/Fixtures"
import { seedWorkspace } from "@margin/core/testing/Seed"
import { Effect, Option, Redacted, Schema } from "effect"
import { SqlClient } from "effect/sql"
import * as PgTestAdapters from "./testing/PgTestAdapters.ts"

const Sealed = Schema.Struct({ sealed: Schema.NullOr(Schema.Uint8Array) })

layer(PgTestAdapters.layer, { timeout: "2 minutes" })(`PgStoreCredentials (${PgTestAdapters.backend})`, (it) => {
  it.effect("credentials are stored sealed and read back only for the connected store of the workspace", () =>
    Effect.gen(function* () {
      const sql = (yield* SqlClient.SqlClient).withoutTransforms()
      const connections = yield* StoreConnectionRepository
      const credentials = yield* StoreCredentials
      const workspace = yield* seedWorkspace()
      const other = yield* seedWorkspace()
      const shopify = aStoreConnection({
        workspaceId: workspace.id,
        platform: "shopify",
        shop: "fixture.myshopify.com"
      })
      yield* connections.connect(shopify, "shpat_secret")

      const [row] = yield* Effect.flatMap(
        sql`SELECT encrypted_credentials AS sealed FROM store_connections WHERE workspace_id = ${workspace.id}`,
        Schema.decodeUnknownEffect(Schema.Array(Sealed))
      )
      const sealed = row?.sealed ?? new Uint8Array(0)
      assert.isAbove(sealed.length, 0)
      assert.isFalse(Buffer.from(sealed).includes("shpat_secret"), "never stored in the clear")

      const token = yield* credentials.accessToken(shopify)
      assert.strictEqual(Option.getOrUndefined(Option.map(token, Redacted.value)), "shpat_secret")
      assert.isTrue(Option.isNone(yield* credentials.accessToken({ ...shopify, workspaceId: other.id })))

      yield* connections.disconnect(workspace.id)
      assert.isTrue(Option.isNone(yield* credentials.accessToken(shopify)), "disconnecting drops them")
      yield* connections.connect(aStoreConnection({ workspaceId: workspace.id }), null)
      assert.isTrue(Option.isNone(yield* credentials.accessToken(shopify)), "a sandbox store has none")
    })
  )
})
