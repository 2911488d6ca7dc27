import { Cause, Config, Predicate, Schema, SchemaIssue } from "effect"

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
