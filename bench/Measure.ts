import { Effect } from "effect"

/** `effect` with the wall-clock milliseconds it took. */
export const timed = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const started = performance.now()
    const value = yield* effect
    return { value, ms: performance.now() - started }
  })

/** Runs `effect` while sampling this process's RSS every 20 ms; answers the highest sample. */
export const withPeakRss = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const samples = { peak: process.memoryUsage.rss() }
    const sample = () => {
      samples.peak = Math.max(samples.peak, process.memoryUsage.rss())
    }
    yield* Effect.acquireRelease(
      Effect.sync(() => setInterval(sample, 20)),
      (handle) => Effect.sync(() => clearInterval(handle))
    )
    const value = yield* effect
    sample()
    return { value, peakRss: samples.peak }
  }).pipe(Effect.scoped)
