import { Effect, Layer, Option, Ref } from "effect"
import { type IdentityKey, IdentityKeyStore } from "../access/IdentityKeyStore.ts"

/** The identity key in process memory: one process, gone at exit (tests and in-process servers). */
export const layer: Layer.Layer<IdentityKeyStore> = Layer.effect(
  IdentityKeyStore,
  Effect.gen(function* () {
    const stored = yield* Ref.make(Option.none<IdentityKey>())
    return IdentityKeyStore.of({
      current: Ref.get(stored),
      insertIfAbsent: (candidate) =>
        Ref.modify(stored, (current) =>
          Option.match(current, {
            onNone: () => [candidate, Option.some(candidate)] as const,
            onSome: (key) => [key, current] as const
          })
        )
    })
  })
)
