import { spawn } from "node:child_process"
import { Effect } from "effect"

/** What the server's programs see of the environment: messages in English, whatever the machine's locale. */
export const programEnvironment = (): Record<string, string> => ({
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  LC_ALL: "C"
})

export interface ProgramOutcome {
  /** The exit code; null when a signal ended it. */
  readonly code: number | null
  /** stdout and stderr, interleaved. */
  readonly output: string
}

export interface ProgramOptions {
  readonly uid?: number
  readonly gid?: number
  readonly env?: Readonly<Record<string, string>>
}

/**
 * Runs `file` with `args` to its end (initdb, id, useradd...) and gives its exit code and output.
 * A program that cannot be started at all (ENOENT) fails with that error; the program's own
 * failure is an outcome for the caller to judge. Interruption kills it.
 */
export const runProgram = (
  file: string,
  args: ReadonlyArray<string>,
  options: ProgramOptions = {}
): Effect.Effect<ProgramOutcome, Error> =>
  Effect.callback<ProgramOutcome, Error>((resume) => {
    const child = spawn(file, args, {
      stdio: ["ignore", "pipe", "pipe"],
      ...(options.uid === undefined ? {} : { uid: options.uid }),
      ...(options.gid === undefined ? {} : { gid: options.gid }),
      ...(options.env === undefined ? {} : { env: options.env })
    })
    const chunks: Array<string> = []
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk.toString("utf8")))
    child.stderr.on("data", (chunk: Buffer) => chunks.push(chunk.toString("utf8")))
    child.once("error", (error) => resume(Effect.fail(error)))
    child.once("close", (code) => resume(Effect.succeed({ code, output: chunks.join("") })))
    return Effect.sync(() => child.kill("SIGKILL"))
  })

/** The last lines of a program's output or a log, for an error message. */
export const tailOf = (text: string, lines = 5): string => text.trim().split("\n").slice(-lines).join(" | ")
