import { Schema } from "effect"
import type { SqlError } from "effect/sql/SqlError"

/** DATABASE_URL or DATA_DIR cannot be used as given. The message names the variable and never echoes a password. */
export class DatabaseConfigError extends Schema.TaggedError<DatabaseConfigError>()("DatabaseConfigError", {
  message: Schema.String
}) {}

/**
 * The database cannot be reached or opened: PostgreSQL refuses the connection, the embedded
 * database is locked by a process that does not answer, its files cannot be opened...
 * The message says what to do; `cause` keeps the underlying error for logs.
 */
export class DatabaseUnavailable extends Schema.TaggedError<DatabaseUnavailable>()("DatabaseUnavailable", {
  message: Schema.String,
  cause: Schema.optional(Schema.Defect())
}) {}

/** What went wrong, in the driver's words (a PostgreSQL error message, ECONNREFUSED...), for messages to people. */
export const reasonOf = (error: SqlError): string => {
  const cause = error.reason.cause
  return cause instanceof Error && cause.message !== "" ? cause.message : (error.reason.message ?? error.message)
}
