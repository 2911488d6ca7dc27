import { Context, Effect, Exit, Layer, Ref, Semaphore } from "effect"
import { emptyTables, type Tables } from "./internal/MemoryTables.ts"

/**
 * The databases whose transaction the current fiber is inside. A fiber that already holds a
 * database's lock joins its transaction instead of waiting for itself (re-entrancy).
 */
const HeldDatabases = Context.Reference<ReadonlySet<object>>("margin/core/memory/HeldDatabases", {
  defaultValue: () => new Set()
})

/**
 * One in-memory database shared by every memory adapter: all tables live in one `Ref`, and one
 * lock serializes every operation, so `transaction` is real. A transaction that fails (error,
 * defect or interruption) puts the tables back as they were when it began; a nested one is part
 * of the outer transaction and, like a savepoint, undoes only its own writes when it fails.
 */
export class MemoryDatabase extends Context.Service<
  MemoryDatabase,
  {
    /** Runs `effect` atomically: serialized with every other call, all of its writes or none. */
    readonly transaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
    /** A consistent read of the tables. */
    readonly read: <A>(f: (tables: Tables) => A) => Effect.Effect<A>
    /** An atomic read-modify-write: `f` returns the answer and the new tables. */
    readonly modify: <A>(f: (tables: Tables) => readonly [A, Tables]) => Effect.Effect<A>
    /** Rewrites the tables directly: for tests that seed rows or break them on purpose. */
    readonly update: (f: (tables: Tables) => Tables) => Effect.Effect<void>
    /** Every table as it stands now (committed, or the current transaction's view). */
    readonly snapshot: Effect.Effect<Tables>
  }
>()("margin/core/memory/MemoryDatabase") {
  static readonly make: Effect.Effect<MemoryDatabase["Service"]> = Effect.gen(function* () {
    const ref = yield* Ref.make(emptyTables)
    const lock = yield* Semaphore.make(1)
    // Identifies this database among the ones a fiber holds.
    const identity = {}

    const undoOnFailure = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
      Effect.flatMap(Ref.get(ref), (before) =>
        Effect.onExit(effect, (exit) => (Exit.isFailure(exit) ? Ref.set(ref, before) : Effect.void))
      )

    const transaction = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
      Effect.flatMap(Effect.service(HeldDatabases), (held) =>
        held.has(identity)
          ? undoOnFailure(effect)
          : lock.withPermit(undoOnFailure(Effect.provideService(effect, HeldDatabases, new Set([...held, identity]))))
      )

    const read = <A>(f: (tables: Tables) => A): Effect.Effect<A> => transaction(Effect.map(Ref.get(ref), f))
    const modify = <A>(f: (tables: Tables) => readonly [A, Tables]): Effect.Effect<A> => transaction(Ref.modify(ref, f))

    return {
      transaction,
      read,
      modify,
      update: (f) => transaction(Ref.update(ref, f)),
      snapshot: read((tables) => tables)
    }
  })

  static readonly layer: Layer.Layer<MemoryDatabase> = Layer.effect(MemoryDatabase, MemoryDatabase.make)
}
