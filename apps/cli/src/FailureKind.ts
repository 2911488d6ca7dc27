import { Data, Runtime, Schema } from "effect"
import { CliError } from "effect/cli"

/**
 * What kind of failure ended a command, and its exit status (docs/cli.md, "Exit status"):
 * 1 refused (the domain or the operator's rules said no), 2 usage (the command line or the
 * environment it reads, DATABASE_URL, SMTP_URL..., is wrong),
 * 3 not found (an id names nothing), 4 conflict (the state does not allow it, or it exists already),
 * 5 unavailable (the database or the service cannot be reached).
 */
export const FailureKind = Schema.Literals(["refused", "usage", "not_found", "conflict", "unavailable"])
export type FailureKind = typeof FailureKind.Type

export const exitStatus: Readonly<Record<FailureKind, number>> = {
  refused: 1,
  usage: 2,
  not_found: 3,
  conflict: 4,
  unavailable: 5
}

const hasTag = (error: unknown): error is { readonly _tag: string; readonly kind?: unknown } =>
  typeof error === "object" && error !== null && "_tag" in error && typeof error._tag === "string"

const isKind = Schema.is(FailureKind)

export const failureKind = (error: unknown): FailureKind => {
  if (CliError.isCliError(error)) return "usage"
  if (!hasTag(error)) return "refused"
  switch (error._tag) {
    case "ResourceNotFound":
      return "not_found"
    case "TransitionConflict":
      return "conflict"
    case "DatabaseUnavailable":
    case "RepositoryError":
    case "MailUnavailable":
    case "StoreReadFailed":
      return "unavailable"
    // The process's environment is part of how it was invoked (DATABASE_URL, SMTP_URL...).
    case "DatabaseConfigError":
    case "MailConfigError":
    case "ConfigError":
      return "usage"
    default:
      return isKind(error.kind) ? error.kind : "refused"
  }
}

/** The failure marginctl ends with once it has said why: its exit status is its kind's. */
export class CommandFailed extends Data.TaggedError("CommandFailed")<{ readonly kind: FailureKind }> {
  override get [Runtime.errorExitCode](): number {
    return exitStatus[this.kind]
  }
}
