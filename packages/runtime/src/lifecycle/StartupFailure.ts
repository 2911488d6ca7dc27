import { Cause, Config, Effect, Predicate, Schema, SchemaIssue } from "effect"

const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1()

const segmentText = (segment: PropertyKey | { readonly key: PropertyKey }): string =>
  String(typeof segment === "object" ? segment.key : segment)

/** `PORT: Expected ...` for each setting a schema refused. */
const configMessage = (error: Config.ConfigError): string =>
  Schema.isSchemaError(error.cause)
    ? `invalid configuration: ${formatIssues(error.cause.issue)
        .issues.map((issue) => `${(issue.path ?? []).map(segmentText).join(".")}: ${issue.message}`)
        .join("; ")}`
    : `configuration could not be read: ${error.cause.message}`

/**
 * Why the server could not start, in one line for the operator: the setting and what is wrong
 * with it, the database that does not answer... The failures of start carry messages written for
 * people (DatabaseConfigError, DatabaseUnavailable, SessionKeyConfigError); a defect is shown whole.
 */
export const describeStartFailure = (cause: Cause.Cause<unknown>): string => {
  const failure = Cause.findErrorOption(cause)
  if (failure._tag === "None") return Cause.pretty(cause)
  const error = failure.value
  if (error instanceof Config.ConfigError) return configMessage(error)
  return Predicate.hasProperty(error, "message") && typeof error.message === "string"
    ? error.message
    : Cause.pretty(cause)
}

/**
 * A process whose start fails (bad configuration, unreachable database) says why in one error log
 * line, `margin-service cannot start: <reason>`, then fails as it did (exit 1). Run it with
 * `disableErrorReporting`, so that the line is the only one; a stop by signal is not explained.
 */
export const explainStartFailure = <A, E, R>(program: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.catchCause(program, (cause) => {
    if (Cause.hasInterruptsOnly(cause)) return Effect.failCause(cause)
    return Effect.logError(`margin-service cannot start: ${describeStartFailure(cause)}`).pipe(
      Effect.andThen(Effect.failCause(cause))
    )
  })
