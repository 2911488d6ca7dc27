import { StoreUnavailable } from "@margin/core/writeback/StoreWriteBack"
import { Config, Context, Duration, Effect, Layer, Ref } from "effect"

/** Where an injected delay happens: before the store reads the price, or after it committed the write. */
export type SandboxDelayPhase = "before_read" | "after_write"

/** A bug-free crash stand-in for tests in one process: the delivery dies after the write was committed. */
export class SandboxCrash extends Error {
  override readonly name = "SandboxCrash"
}

interface Delay {
  readonly remaining: number
  readonly millis: number
}

interface FaultState {
  readonly failures: number
  readonly failureMessage: string
  readonly delays: Readonly<Record<SandboxDelayPhase, Delay>>
  readonly crashes: number
}

const noDelay: Delay = { remaining: 0, millis: 0 }
const noFaults: FaultState = {
  failures: 0,
  failureMessage: "",
  delays: { before_read: noDelay, after_write: noDelay },
  crashes: 0
}

/** Takes one use of a counted fault: whether it applied, and the state without it. */
const consume = (remaining: number): readonly [boolean, number] =>
  remaining > 0 ? [true, remaining === Infinity ? Infinity : remaining - 1] : [false, 0]

const makeSandboxFaults = (initial: FaultState, crash: Effect.Effect<unknown>) =>
  Effect.map(Ref.make(initial), (state) => {
    const takeDelay = (phase: SandboxDelayPhase) =>
      Ref.modify(state, (current): readonly [number, FaultState] => {
        const [applies, remaining] = consume(current.delays[phase].remaining)
        const delay = current.delays[phase]
        return [
          applies ? delay.millis : 0,
          { ...current, delays: { ...current.delays, [phase]: { ...delay, remaining } } }
        ]
      }).pipe(Effect.flatMap((millis) => (millis > 0 ? Effect.sleep(Duration.millis(millis)) : Effect.void)))

    return SandboxFaults.of({
      failNext: (count, message = "the sandbox store is unavailable (injected)") =>
        Ref.update(state, (current) => ({ ...current, failures: count, failureMessage: message })),
      delayNext: (count, delay, phase) =>
        Ref.update(state, (current) => ({
          ...current,
          delays: { ...current.delays, [phase]: { remaining: count, millis: Duration.toMillis(delay) } }
        })),
      crashAfterNextWrite: (count = 1) => Ref.update(state, (current) => ({ ...current, crashes: count })),
      beforeRead: Ref.modify(state, (current): readonly [string | null, FaultState] => {
        const [applies, failures] = consume(current.failures)
        return [applies ? current.failureMessage : null, { ...current, failures }]
      }).pipe(
        Effect.flatMap((message) => (message === null ? Effect.void : Effect.fail(new StoreUnavailable({ message })))),
        Effect.andThen(takeDelay("before_read"))
      ),
      afterWrite: takeDelay("after_write").pipe(
        Effect.andThen(
          Ref.modify(state, (current): readonly [boolean, FaultState] => {
            const [applies, crashes] = consume(current.crashes)
            return [applies, { ...current, crashes }]
          })
        ),
        Effect.flatMap((crashes) => (crashes ? Effect.asVoid(crash) : Effect.void))
      )
    })
  })

/**
 * Faults the sandbox store can be told to show, so the outbox's retries, timeouts and crash recovery can
 * be tested against a store that keeps real records. In one process tests script them through this
 * service; a separate worker process gets them from the environment (see `layer`).
 */
export class SandboxFaults extends Context.Service<
  SandboxFaults,
  {
    /** The next `count` deliveries answer StoreUnavailable without touching the store. */
    readonly failNext: (count: number, message?: string) => Effect.Effect<void>
    /** The next `count` deliveries pause this long at `phase`, so a caller's timeout can fire there. */
    readonly delayNext: (count: number, delay: Duration.Input, phase: SandboxDelayPhase) => Effect.Effect<void>
    /** The next `count` committed writes are followed by a crash instead of an answer. */
    readonly crashAfterNextWrite: (count?: number) => Effect.Effect<void>
    /** Called by the store before a delivery reads anything. */
    readonly beforeRead: Effect.Effect<void, StoreUnavailable>
    /** Called by the store right after a write committed, before it answers. */
    readonly afterWrite: Effect.Effect<void>
  }
>()("margin/stores/SandboxFaults") {
  /**
   * From the environment, for fault tests that run the worker as its own process:
   * - SANDBOX_FAIL_FIRST=N: the first N deliveries of this process answer StoreUnavailable;
   * - SANDBOX_DELAY=<duration> (e.g. "2 seconds"): every delivery pauses that long before reading;
   * - SANDBOX_CRASH_AFTER_WRITE=true: the process kills itself with SIGKILL (kill -9, no cleanup)
   *   right after the first write it commits, before recording anything else.
   * With none of them set, the sandbox shows no faults (the default for demos).
   */
  static readonly layer = Layer.effect(
    SandboxFaults,
    Effect.gen(function* () {
      const failFirst = yield* Config.Int("SANDBOX_FAIL_FIRST").pipe(Config.withDefault(0))
      const delay = yield* Config.Duration("SANDBOX_DELAY").pipe(Config.withDefault(Duration.zero))
      const crash = yield* Config.Boolean("SANDBOX_CRASH_AFTER_WRITE").pipe(Config.withDefault(false))
      return yield* makeSandboxFaults(
        {
          ...noFaults,
          failures: failFirst,
          failureMessage: `the sandbox store is unavailable (SANDBOX_FAIL_FIRST=${failFirst})`,
          delays: { before_read: { remaining: Infinity, millis: Duration.toMillis(delay) }, after_write: noDelay },
          crashes: crash ? 1 : 0
        },
        Effect.sync(() => process.kill(process.pid, "SIGKILL"))
      )
    })
  )

  /** No faults until a test scripts them; a crash is a defect of the delivery (the test process lives on). */
  static readonly layerTest = Layer.effect(
    SandboxFaults,
    makeSandboxFaults(noFaults, Effect.die(new SandboxCrash("the sandbox store crashed after committing the write")))
  )
}
