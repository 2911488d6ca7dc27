import { Effect, Layer, Ref } from "effect"
import { IdGenerator } from "../kernel/IdGenerator.ts"
import { type IdKind, idPrefixes } from "../kernel/Ids.ts"

/** `rec_000001`: the n-th id of its kind, zero-padded so that text order is creation order. */
export const formatId = (kind: IdKind, n: number): string => `${idPrefixes[kind]}_${String(n).padStart(6, "0")}`

/** Deterministic ids for tests: one counter per kind, starting at 1 for every new layer. */
export const layer: Layer.Layer<IdGenerator> = Layer.effect(
  IdGenerator,
  Effect.gen(function* () {
    const counters = yield* Ref.make<ReadonlyMap<IdKind, number>>(new Map())
    return IdGenerator.of({
      next: (kind) =>
        Ref.modify(counters, (current) => {
          const n = (current.get(kind) ?? 0) + 1
          return [formatId(kind, n), new Map(current).set(kind, n)]
        })
    })
  })
)
