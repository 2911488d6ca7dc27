/**
 * The laws every state machine of core obeys, checked over command histories that fast-check
 * generates: a machine is `decide(state, command, now) -> Outcome`.
 */
import { assert } from "@effect/vitest"
import * as fc from "fast-check"
import * as Outcome from "../kernel/Outcome.ts"

export type Decide<S, C> = (state: S, command: C, now: number) => Outcome.Outcome<S>

/** A history: each command with the milliseconds that pass before it. */
export const history = <C>(command: fc.Arbitrary<C>, maxDelay = 10_000): fc.Arbitrary<Array<[C, number]>> =>
  fc.array(fc.tuple(command, fc.integer({ min: 0, max: maxDelay })), { maxLength: 12 })

export interface Step<S, C> {
  readonly before: S
  readonly command: C
  readonly outcome: Outcome.Outcome<S>
  readonly now: number
}

/** Plays a history from `initial`, time starting at 0; `check` sees every step. Never catches. */
export const replay = <S, C>(
  decide: Decide<S, C>,
  initial: S,
  steps: ReadonlyArray<readonly [C, number]>,
  check: (step: Step<S, C>) => void
): S => {
  let state = initial
  let now = 0
  for (const [command, delay] of steps) {
    now += delay
    const outcome = decide(state, command, now)
    check({ before: state, command, outcome, now })
    state = Outcome.current(outcome)
  }
  return state
}

export interface RepeatRules<C> {
  /** False for commands whose repeat is never idempotent (reject). */
  readonly repeatable: (command: C) => boolean
  /** True when `later` taking effect makes `earlier` no longer a repeat (a snooze moved to a new instant). */
  readonly replaces: (later: C, earlier: C) => boolean
}

/**
 * After every step, each repeatable command that took effect earlier in the history is an
 * `IdempotentRepeat` that answers the very same state, whatever happened since.
 */
export const assertRepeatsAreIdempotent = <S, C>(
  decide: Decide<S, C>,
  initial: S,
  steps: ReadonlyArray<readonly [C, number]>,
  rules: RepeatRules<C>
): void => {
  let tookEffect: Array<C> = []
  replay(decide, initial, steps, ({ command, outcome, now }) => {
    if (outcome._tag === "Transitioned" && rules.repeatable(command)) {
      tookEffect = [...tookEffect.filter((earlier) => !rules.replaces(command, earlier)), command]
    }
    const state = Outcome.current(outcome)
    for (const earlier of tookEffect) {
      const repeat = decide(state, earlier, now + 1)
      assert.strictEqual(repeat._tag, "IdempotentRepeat")
      assert.strictEqual(Outcome.current(repeat), state)
    }
  })
}

/** Reaches a state the way production does: through the machine, one command a second. */
export const reach = <S, C>(decide: Decide<S, C>, initial: S, path: ReadonlyArray<C>): S =>
  path.reduce((state, command, step) => Outcome.current(decide(state, command, 1000 * (step + 1))), initial)

/** One cell of a machine's (state, command) table: a repeat, a conflict, or the status it moves to. */
export type Expected<Status extends string> = Status | "repeat" | "conflict"

/** A repeat or a conflict answers the very state it was given; a transition lands on `expected`. */
export const assertCell = <S extends { readonly status: string }>(
  state: S,
  outcome: Outcome.Outcome<S>,
  expected: Expected<S["status"]>
): void => {
  if (expected === "repeat" || expected === "conflict") {
    assert.strictEqual(outcome._tag, expected === "repeat" ? "IdempotentRepeat" : "Conflict")
    assert.strictEqual(Outcome.current(outcome), state)
  } else {
    assert.strictEqual(outcome._tag, "Transitioned")
    assert.strictEqual(Outcome.current(outcome).status, expected)
  }
}
