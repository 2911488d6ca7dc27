import { Effect, Option } from "effect"
import { RunRepository } from "../ports/RunRepository.ts"
import { WriteBackOutbox } from "../ports/WriteBackOutbox.ts"
import { dayMs, fixtureNow } from "./Fixtures.ts"

/**
 * Claims are global (a worker serves every workspace), so a claim test first takes every row
 * that earlier tests left claimable, with a lease no test instant reaches. Tests of one suite run
 * one after another; no other claimer may use the database meanwhile.
 */
export const drainAt = fixtureNow + 100 * 365 * dayMs
/** 9999-12-31T23:59:59.999Z: representable in every timestamp column. */
export const endOfTime = 253_402_300_799_999

export const drainRuns = Effect.gen(function* () {
  const runs = yield* RunRepository
  while (Option.isSome(yield* runs.claimNext("contract-drain", drainAt, endOfTime))) {
    // keep claiming
  }
})

export const drainOutbox = Effect.gen(function* () {
  const outbox = yield* WriteBackOutbox
  while ((yield* outbox.claimDue("contract-drain", drainAt, endOfTime, 100)).length > 0) {
    // keep claiming
  }
})
