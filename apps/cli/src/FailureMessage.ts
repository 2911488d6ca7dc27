/**
 * The one line marginctl prints on stderr when a command fails: what went wrong, in words an
 * operator can act on. Expected failures of every layer end here (domain, database,
 * configuration); parse errors of the command line are printed by the CLI itself.
 */

const hasTag = (error: unknown): error is { readonly _tag: string } & Readonly<Record<string, unknown>> =>
  typeof error === "object" && error !== null && "_tag" in error && typeof error._tag === "string"

const text = (value: unknown): string =>
  typeof value === "string" ? value : typeof value === "number" ? String(value) : ""

export const failureMessage = (error: unknown): string => {
  if (!hasTag(error)) return error instanceof Error ? error.message : "unexpected failure"
  switch (error._tag) {
    case "ResourceNotFound":
      return `no ${text(error.resource)} ${text(error.id)}`
    case "TransitionConflict":
      return `${text(error.resource)} ${text(error.id)} is ${text(error.status)}: ${text(error.reason)}`
    case "PlanLimitExceeded":
      return `plan limit reached: ${text(error.limit)} ${text(error.used)} of ${text(error.allowed)}`
    case "EmailNotConfirmed":
      return "the user's e-mail address is not confirmed"
    case "InvalidInput":
      return `${text(error.path)}: ${text(error.message)}`
    case "TierIneligible":
      return `the plan ${text(error.plan)} does not include store write-back`
    case "NoCommerceIntegration":
      return "the workspace has no connected store"
    case "RepositoryError":
      return `database error in ${text(error.operation)}: ${text(error.message)}`
    default: {
      const message = text(error.message)
      return message === "" ? error._tag : message
    }
  }
}
