import { spawn } from "node:child_process"
import { join } from "node:path"
import { Duration, Effect, Schema } from "effect"

/** `marginctl demo` did not finish: it said why itself, just above. */
export class DemoSeedFailed extends Schema.TaggedError<DemoSeedFailed>()("DemoSeedFailed", {
  message: Schema.String
}) {}

// The same path from src/ and from the bundle in dist/.
const marginctl = join(import.meta.dirname, "..", "..", "cli", "bin", "marginctl.js")

/**
 * `npm start`'s demo seed: `marginctl demo` (seeds the demo workspace or finds it, prints fresh
 * tokens and ready-to-paste requests), started while this process opens the database. Both use
 * the one embedded PostgreSQL (whichever comes first starts it, the other joins), and the server
 * starts its background loops, which could otherwise take the run the demo queues, and serves
 * only once the demo has finished. Its output is this process's. Interrupted (Ctrl-C, or the
 * server's start failed), it is stopped.
 */
const runDemo = Effect.callback<void, DemoSeedFailed>((resume) => {
  const child = spawn(process.execPath, [marginctl, "demo"], { stdio: ["ignore", "inherit", "inherit"] })
  child.once("error", (error) =>
    resume(Effect.fail(new DemoSeedFailed({ message: `cannot run ${marginctl}: ${error.message}` })))
  )
  child.once("exit", (code, signal) =>
    resume(
      code === 0
        ? Effect.void
        : Effect.fail(
            new DemoSeedFailed({
              message: `the demo seed (marginctl demo) failed (${signal ?? `exit ${code}`}): see above`
            })
          )
    )
  )
  return Effect.sync(() => child.kill("SIGTERM"))
})

/** `runDemo`, and how long it took in the start-up log (a new DATA_DIR's seed is most of a first start). */
export const demoSeed: Effect.Effect<void, DemoSeedFailed> = runDemo.pipe(
  Effect.timed,
  Effect.flatMap(([took]) =>
    Effect.logInfo(`demo seed (marginctl demo) done in ${Math.round(Duration.toMillis(took))} ms`)
  )
)

/**
 * The demo's owner as `marginctl demo` creates them (apps/cli DemoCommand's `demoUsers`; an app
 * does not import another): `npm start` prints a console sign-in link for this address.
 */
export const demoOwnerEmail = "owner@demo-store.example"
