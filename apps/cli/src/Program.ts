import { NodeServices } from "@effect/platform-node"
import { Cause, Console, Effect, Layer, Logger, References } from "effect"
import { CliError, CliOutput, Command } from "effect/cli"
import { marginctl, version } from "./Cli.ts"
import { CommandFailed, type FailureKind, failureKind } from "./FailureKind.ts"
import { failureMessage } from "./FailureMessage.ts"

/**
 * `--json` anywhere on the command line (it is a global flag). Read from the arguments themselves,
 * because a command line that does not parse has no parsed flags, and its error must be JSON too.
 */
const jsonRequested = process.argv.slice(2).some((arg) => arg === "--json" || arg === "--json=true")

/**
 * A failure on stderr: one `marginctl: …` line, or with --json one object `{ code, message }`. A
 * message of several lines (a schema's list of issues) is joined into one.
 */
const sayFailure = (kind: FailureKind, message: string) => {
  const line = message.replaceAll(/\s*\n\s*/g, " ").trim()
  return Console.error(jsonRequested ? JSON.stringify({ code: kind, message: line }) : `marginctl: ${line}`)
}

/**
 * A command line that does not parse: one line on stderr with a pointer to --help (stdout stays for
 * results, so a script reading `--json` output never gets usage text); help and version go to stdout.
 */
/** A parse error's message on one line: `… (did you mean --name?)` for the CLI's suggestion block. */
const oneLine = (message: string): string => {
  const [head = "", suggestions] = message.split(/\s*Did you mean this\?\s*/)
  const flat = head.replaceAll(/\s+/g, " ").trim()
  return suggestions === undefined ? flat : `${flat} (did you mean ${suggestions.trim().split(/\s+/).join(", ")}?)`
}

const presenter = CliOutput.layerPresenter({
  present: (event) =>
    event._tag === "InvalidInvocation"
      ? sayFailure(
          "usage",
          `${event.errors.map((error) => oneLine(error.message)).join("; ")}; run marginctl ${[...event.commandPath.slice(1), "--help"].join(" ")} for usage`
        )
      : CliOutput.defaultPresenter.present(event)
})

// Logs go to stderr (stdout is the command's result only), warnings and worse unless --log-level says otherwise.
const logging = Layer.mergeAll(
  Layer.succeed(Logger.LogToStderr, true),
  Layer.succeed(References.MinimumLogLevel, "Warn")
)

/**
 * marginctl on the process's arguments. A failure is said once on stderr and ends the process with
 * its kind's exit status (FailureKind; main.ts runs it).
 */
export const program = Command.run(marginctl, { version }).pipe(
  Effect.catchCause((cause) => {
    const failure = Cause.findErrorOption(cause)
    // A defect (no expected failure): said with its trace on the lines after, exit status 1.
    if (failure._tag === "None") {
      return sayFailure("refused", "unexpected failure").pipe(
        Effect.andThen(Console.error(Cause.pretty(cause))),
        Effect.andThen(Effect.fail(new CommandFailed({ kind: "refused" })))
      )
    }
    // Help shown for a group without a subcommand (`marginctl workspace`): not a failure.
    const error = failure.value
    if (CliError.isCliError(error) && error._tag === "ShowHelp" && error.errors.length === 0) return Effect.void
    const kind = failureKind(failure.value)
    // The CLI printed its own parse errors already (the presenter).
    const said = CliError.isCliError(failure.value) ? Effect.void : sayFailure(kind, failureMessage(failure.value))
    return said.pipe(Effect.andThen(Effect.fail(new CommandFailed({ kind }))))
  }),
  Effect.provide(Layer.mergeAll(NodeServices.layer, presenter, logging))
)
