import { hostname } from "node:os"
import { Deferred, Duration, Effect, Fiber, Option, Random, type Scope } from "effect"

/**
 * What the background workers of this package share: claim loops on fibers of the layer's scope,
 * each with its own owner id, stopped between rounds when the scope closes.
 */

/** `host:pid:random`: unique per loop, and says in a lease column which process holds a row. */
export const ownerId: Effect.Effect<string> = Effect.map(
  Random.nextIntBetween(0, 0xffffffff),
  (random) => `${hostname()}:${process.pid}:${random.toString(16).padStart(8, "0")}`
)

export interface LoopsOptions {
  /** The `job` annotation of the stop's log lines ("outbox", "runs"). */
  readonly job: string
  readonly concurrency: number
  /** How long the loops may take, once stopping, to end the round in hand before they are interrupted. */
  readonly drainTimeout: Duration.Input
  /** Logged when the drain timeout cut a loop short: what happens to its work. */
  readonly cutShort: string
}

/**
 * Forks `concurrency` loops into the current scope and answers their owner ids. Each loop is given
 * `stopping`, which completes when the scope closes, and must end at its next round after that; the
 * close waits up to `drainTimeout` for them, then interrupts what is left.
 */
export const forkLoops = <R>(
  options: LoopsOptions,
  loop: (owner: string, stopping: Deferred.Deferred<void>) => Effect.Effect<void, never, R>
): Effect.Effect<ReadonlyArray<string>, never, Scope.Scope | R> =>
  Effect.gen(function* () {
    const stopping = yield* Deferred.make<void>()
    const owners = yield* Effect.replicateEffect(ownerId, options.concurrency)
    const loops = yield* Effect.forEach(owners, (owner) => Effect.forkScoped(loop(owner, stopping)))
    // Added after the forks, so it runs before their interruption when the scope closes.
    yield* Effect.addFinalizer(() =>
      Effect.gen(function* () {
        yield* Deferred.succeed(stopping, undefined)
        const drained = yield* Effect.interruptible(Fiber.awaitAll(loops)).pipe(
          Effect.timeoutOption(options.drainTimeout)
        )
        yield* Option.isSome(drained)
          ? Effect.logInfo(`${options.job} worker stopped`)
          : Effect.logWarning(`${options.job} worker stopped with work in progress: ${options.cutShort}`)
      }).pipe(Effect.annotateLogs({ job: options.job }))
    )
    return owners
  })

/** Waits `duration`, or less if `stopping` completes first. */
export const pauseUnlessStopping = (stopping: Deferred.Deferred<void>, duration: Duration.Input): Effect.Effect<void> =>
  Effect.raceFirst(Effect.sleep(duration), Deferred.await(stopping))

/** The pause after `failures` rounds failed in a row: the poll interval doubled per failure, at most `max`. */
export const failureBackoff = (
  pollInterval: Duration.Input,
  failures: number,
  max: Duration.Input
): Duration.Duration =>
  Duration.min(
    Duration.times(Duration.fromInputUnsafe(pollInterval), 2 ** Math.min(failures, 16)),
    Duration.fromInputUnsafe(max)
  )
