import { assert, layer } from "@effect/vitest"
import { IdentityKeyStore } from "@margin/core/access/IdentityKeyStore"
import { identityKeyStoreContract } from "@margin/core/testing/IdentityKeyStoreContract"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import * as PgIdentityKeyStore from "./PgIdentityKeyStore.ts"
import { backend } from "./testing/PgTestAdapters.ts"
import { TestDatabase } from "./testing/TestDatabase.ts"

const store = PgIdentityKeyStore.layer.pipe(Layer.provideMerge(TestDatabase.layer))

identityKeyStoreContract(
  backend,
  store,
  Effect.flatMap(TestDatabase, (database) => database.reset)
)

layer(store, { timeout: "2 minutes" })(`PgIdentityKeyStore (${backend})`, (it) => {
  it.effect("holds one row however many candidates were offered", () =>
    Effect.gen(function* () {
      yield* (yield* TestDatabase).reset
      const keys = yield* IdentityKeyStore
      yield* Effect.all(
        ["k1", "k2", "k3"].map((kid) =>
          keys.insertIfAbsent({ kid, algorithm: "ES256", publicJwk: "{}", privateJwk: "{}", createdAt: 0 })
        ),
        { concurrency: "unbounded" }
      )
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql`SELECT kid FROM identity_keys`
      assert.strictEqual(rows.length, 1)
    })
  )
})
