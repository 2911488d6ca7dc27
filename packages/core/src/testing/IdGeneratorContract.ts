import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Result } from "effect"
import { IdGenerator } from "../kernel/IdGenerator.ts"
import { type IdKind, idPrefixes } from "../kernel/Ids.ts"
import { decodeCursor, encodeCursor } from "../kernel/Page.ts"
import { fixtureNow } from "./Fixtures.ts"

const kinds = Object.keys(idPrefixes).filter((kind): kind is IdKind => kind in idPrefixes)

/** The IdGenerator port's contract: every adapter must pass it. */
export const idGeneratorContract = <E>(name: string, services: Layer.Layer<IdGenerator, E>) =>
  layer(services)(`IdGenerator contract (${name})`, (it) => {
    it.effect("ids carry their kind's prefix and fit in a list cursor", () =>
      Effect.gen(function* () {
        const ids = yield* IdGenerator
        for (const kind of kinds) {
          const id = yield* ids.next(kind)
          assert.isTrue(id.startsWith(`${idPrefixes[kind]}_`), `${id} is a ${kind} id`)
          const cursor = { createdAt: fixtureNow, id }
          const decoded = decodeCursor(encodeCursor(cursor))
          assert.deepStrictEqual(Result.getOrNull(decoded), cursor, `${id} survives a cursor`)
        }
      })
    )

    it.effect("ids are unique, also when drawn concurrently", () =>
      Effect.gen(function* () {
        const ids = yield* IdGenerator
        const drawn = yield* Effect.all(
          Array.from({ length: 2_000 }, (_, n) => ids.next(n % 2 === 0 ? "recommendation" : "alert")),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(new Set(drawn).size, drawn.length)
      })
    )
  })
