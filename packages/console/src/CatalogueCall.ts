import type { Actor } from "@margin/core/access/Actor"
import type { Role } from "@margin/core/access/Role"
import { scopesForRole } from "@margin/core/access/RoleScopes"
import type { UserId, WorkspaceId } from "@margin/core/kernel/Ids"
import type { Operation } from "@margin/core/operations/Operation"
import type { OperationCaller } from "@margin/core/operations/OperationInput"
import { Result, Schema, SchemaIssue } from "effect"

/**
 * How the console calls an operation of the catalogue: with the input the entry declares, decoded
 * by the entry's own schemas (the query string's variant, as REST reads a query), so that a form
 * is held to the rules a REST or MCP call is; with the scope of the entry checked against what the
 * person's role stands for (`scopesForRole`, as for an API key they could create); and through the
 * entry's binding with the session's caller. Runs the console queues record the `api` door: the
 * contract's run triggers name no console, and the console is a first-party client of the same API.
 */

/** The session's person as the use case needs them. */
export const sessionCaller = (place: {
  readonly workspaceId: WorkspaceId
  readonly userId: UserId
  readonly role: Role
}): OperationCaller => {
  const actor: Actor = { _tag: "SessionActor", userId: place.userId }
  return { workspaceId: place.workspaceId, userId: place.userId, actor, role: place.role, door: "api" }
}

/** Whether the person's role stands for the scope the operation asks for. */
export const mayCall = (role: Role, entry: Operation): boolean =>
  entry.access === null || scopesForRole(role).includes(entry.access.scope)

const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1()

/** The input decoded, or the issues as one sentence a page shows (`field: what is wrong; ...`). */
export const decodeForm = <S extends Schema.Top & { readonly DecodingServices: never }>(
  schema: S,
  raw: unknown
): Result.Result<S["Type"], string> =>
  Result.mapError(Schema.decodeUnknownResult(schema)(raw), (error) =>
    formatIssues(error.issue)
      .issues.map((issue) => `${issue.path?.map(String).join(".") || "input"}: ${issue.message}`)
      .join("; ")
  )
