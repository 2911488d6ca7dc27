import { Clock, Effect } from "effect"

/** Budgets are fixed minutes: start well inside one, so that no reset happens mid-test. */
export const awayFromWindowEdge = Effect.gen(function* () {
  const now = yield* Clock.currentTimeMillis
  const left = 60_000 - (now % 60_000)
  if (left < 5_000) yield* Effect.sleep(left + 50)
})
