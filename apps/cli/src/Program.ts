import { NodeServices } from "@effect/platform-node"
import { Cause, Console, Effect, Layer, Logger, References } from "effect"
import { CliError, CliOutput, Command } from "effect/cli"
import { marginctl, version } from "./Cli.ts"
import { failureMessage } from "./FailureMessage.ts"

/**
 * Parse errors go to stderr with a pointer to --help (stdout stays for results, so a script
 * reading `--json` output never gets usage text); help and version go to stdout.
 */
const presenter = CliOutput.layerPresenter({
  present: (event) =>
    event._tag === "InvalidInvocation"
      ? Effect.gen(function* () {
          const formatter = yield* CliOutput.Formatter
          yield* Console.error(formatter.formatErrors(event.errors))
          yield* Console.error(`Run marginctl ${[...event.commandPath.slice(1), "--help"].join(" ")} for usage.`)
        })
      : CliOutput.defaultPresenter.present(event)
})

// Logs go to stderr (stdout is the command's result only), warnings and worse unless --log-level says otherwise.
const logging = Layer.mergeAll(
  Layer.succeed(Logger.LogToStderr, true),
  Layer.succeed(References.MinimumLogLevel, "Warn")
)

/** marginctl on the process's arguments: a failure is one `marginctl: …` line on stderr (main.ts runs it). */
export const program = Command.run(marginctl, { version }).pipe(
  Effect.catchCause((cause) => {
    const failure = Cause.findErrorOption(cause)
    // The CLI printed its own parse errors and help already.
    if (failure._tag === "Some" && CliError.isCliError(failure.value)) return Effect.failCause(cause)
    const message =
      failure._tag === "Some" ? failureMessage(failure.value) : `unexpected failure:\n${Cause.pretty(cause)}`
    return Console.error(`marginctl: ${message}`).pipe(Effect.andThen(Effect.failCause(cause)))
  }),
  Effect.provide(Layer.mergeAll(NodeServices.layer, presenter, logging))
)
