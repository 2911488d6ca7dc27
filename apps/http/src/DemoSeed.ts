import { spawn } from "node:child_process"
import { join } from "node:path"
import { Effect, Schema } from "effect"

/** `marginctl demo` did not finish: it said why itself, just above. */
export class DemoSeedFailed extends Schema.TaggedError<DemoSeedFailed>()("DemoSeedFailed", {
  message: Schema.String
}) {}

// The same path from src/ and from the bundle in dist/.
const marginctl = join(import.meta.dirname, "..", "..", "cli", "bin", "marginctl.js")

/**
 * `npm start`'s demo seed: `marginctl demo` (seeds the demo workspace or finds it, prints fresh
 * tokens and ready-to-paste requests), run once this process has the database up and migrated. It
 * joins that database instead of starting and stopping one of its own, and runs before the
 * background loops, which could otherwise take the run it queues. Its output is this process's.
 * Interrupted (Ctrl-C while it seeds), it is stopped.
 */
export const demoSeed: Effect.Effect<void, DemoSeedFailed> = Effect.callback<void, DemoSeedFailed>((resume) => {
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
