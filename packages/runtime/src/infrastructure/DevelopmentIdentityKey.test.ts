import { assert, layer } from "@effect/vitest"
import { developmentIdentityKey } from "@margin/edge/auth"
import { PgIdentityKeyStore } from "@margin/postgres"
import { backend } from "@margin/postgres/testing/PgTestAdapters"
import { TestDatabase } from "@margin/postgres/testing/TestDatabase"
import { Effect, Layer } from "effect"

// The development session key of the servers and `marginctl session-token`, on the key store the
// servers use (ServerInfrastructure): generated once, then found again.
layer(PgIdentityKeyStore.layer.pipe(Layer.provideMerge(TestDatabase.layer)), { timeout: "2 minutes" })(
  `the development identity key on PgIdentityKeyStore (${backend})`,
  (it) => {
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
