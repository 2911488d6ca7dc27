import { Effect, Option } from "effect"
import { RunRepository } from "../runs/RunRepository.ts"
import { WriteBackOutbox } from "../writeback/WriteBackOutbox.ts"
import { dayMs, fixtureNow } from "./Fixtures.ts"

/**
 * Claims are global (a worker serves every workspace), so a claim test first takes every row
 * that earlier tests left claimable, with a lease no test instant reaches. Tests of one suite run
 * one after another; no other claimer may use the database meanwhile.
 */
export const drainAt = fixtureNow + 100 * 365 * dayMs
/** 9999-12-31T23:59:59.999Z: representable in every timestamp column. */
export const endOfTime = 253_402_300_799_999

/** More claims than any suite leaves rows means the same rows keep coming back: leases are ignored. */
const maxDrainClaims = 10_000

const drain = <E, R>(claim: Effect.Effect<boolean, E, R>, what: string) =>
  Effect.gen(function* () {
    for (let claims = 0; claims < maxDrainClaims; claims++) {
      if (!(yield* claim)) return
    }
    return yield* Effect.die(`${what} never run out of claimable rows: are leases honoured?`)
  })

export const drainRuns = drain(
  RunRepository.use((runs) => runs.claimNext("contract-drain", drainAt, endOfTime)).pipe(Effect.map(Option.isSome)),
  "runs"
)

export const drainOutbox = drain(
  WriteBackOutbox.use((outbox) => outbox.claimDue("contract-drain", drainAt, endOfTime, 100)).pipe(
    Effect.map((claimed) => claimed.length > 0)
  ),
  "write-backs"
)
