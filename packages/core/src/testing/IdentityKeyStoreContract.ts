import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import { type IdentityKey, IdentityKeyStore } from "../access/IdentityKeyStore.ts"

/** A key of the store's shape; its JWKs are placeholders, the store only keeps their text. */
const candidate = (kid: string): IdentityKey => ({
  kid,
  algorithm: "ES256",
  publicJwk: JSON.stringify({ kty: "EC", crv: "P-256", x: `x-${kid}`, y: `y-${kid}`, kid }),
  privateJwk: JSON.stringify({ kty: "EC", crv: "P-256", x: `x-${kid}`, y: `y-${kid}`, d: `d-${kid}`, kid }),
  createdAt: 1_750_000_000_000
})

/**
 * The IdentityKeyStore port's contract: every adapter must pass it. `empty` empties the store the
 * layer holds (a shared database keeps its key between suites); the layer is built once.
 */
export const identityKeyStoreContract = <E, R>(
  name: string,
  services: Layer.Layer<IdentityKeyStore | R, E>,
  empty: Effect.Effect<void, never, NoInfer<R>>
) =>
  layer(services, { timeout: "2 minutes" })(`IdentityKeyStore contract (${name})`, (it) => {
    it.effect("keeps the first key stored; later and concurrent candidates get that one back", () =>
      Effect.gen(function* () {
        yield* empty
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
        assert.deepStrictEqual(yield* store.insertIfAbsent(candidate("k5")), winner)
      })
    )
  })
