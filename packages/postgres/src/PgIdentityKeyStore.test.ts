import { assert, layer } from "@effect/vitest"
import { IdentityKeyStore } from "@margin/edge/IdentityKeyStore"
import { developmentIdentityKey } from "@margin/edge/SessionJwtKeys"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import * as PgIdentityKeyStore from "./PgIdentityKeyStore.ts"
import { TestDatabase } from "./TestDatabase.ts"

const candidate = (kid: string) => ({
  kid,
  algorithm: "ES256" as const,
  publicJwk: JSON.stringify({ kty: "EC", crv: "P-256", x: `x-${kid}`, y: `y-${kid}`, kid }),
  privateJwk: JSON.stringify({ kty: "EC", crv: "P-256", x: `x-${kid}`, y: `y-${kid}`, d: `d-${kid}`, kid }),
  createdAt: 1_750_000_000_000
})

layer(PgIdentityKeyStore.layer.pipe(Layer.provideMerge(TestDatabase.layer)), { timeout: "2 minutes" })(
  "PgIdentityKeyStore",
  (it) => {
    it.effect("keeps the first key stored; later and concurrent candidates get that one back", () =>
      Effect.gen(function* () {
        yield* (yield* TestDatabase).reset
        const store = yield* IdentityKeyStore
        assert.isTrue(Option.isNone(yield* store.current))
        const stored = yield* Effect.all(
          ["k1", "k2", "k3", "k4"].map((kid) => store.insertIfAbsent(candidate(kid))),
          { concurrency: "unbounded" }
        )
        const winner = stored[0]
        assert.isDefined(winner)
        for (const key of stored) assert.deepStrictEqual(key, winner)
        assert.deepStrictEqual(yield* store.current, Option.fromUndefinedOr(winner))
        assert.deepStrictEqual(JSON.parse(winner?.privateJwk ?? "{}").d, `d-${winner?.kid}`)
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql`SELECT kid FROM identity_keys`
        assert.strictEqual(rows.length, 1)
      })
    )

    it.effect("the development key generated through it is a usable ES256 pair, generated once", () =>
      Effect.gen(function* () {
        yield* (yield* TestDatabase).reset
        const first = yield* developmentIdentityKey
        const second = yield* developmentIdentityKey
        assert.deepStrictEqual(second, first)
        assert.strictEqual(JSON.parse(first.publicJwk).crv, "P-256")
        assert.isUndefined(JSON.parse(first.publicJwk).d)
      })
    )
  }
)
