import type { Role } from "@margin/core/access/Role"
import type { UserId, WorkspaceId } from "@margin/core/kernel/Ids"
import type { OperationCaller } from "@margin/core/operations/OperationInput"
import { Input } from "@margin/core/operations/OperationInput"
import { Effect, Schema } from "effect"
import type { VariantSchema } from "effect/schema"

/**
 * A catalogue operation's query as a console page receives it: the page's URL parameters decoded by
 * the entry's own query schema (the `query` variant REST decodes with), so that a filter the
 * console accepts is one REST and MCP accept, and a value they refuse is refused here. Empty
 * parameters are a form's unused fields, not values: they are left out. A refusal is its message.
 */
export const consoleQuery = <Fields extends VariantSchema.Struct.Fields>(query: VariantSchema.Struct<Fields>) => {
  const decode = Schema.decodeUnknownEffect(Input.extract(query, "query"))
  return (params: URLSearchParams) =>
    decode(Object.fromEntries([...params].filter(([, value]) => value.trim() !== ""))).pipe(
      Effect.mapError((error) => error.message)
    )
}

/** The signed-in person as an operation's caller (the console is a first-party client of the API door). */
export const consoleCaller = (place: {
  readonly workspaceId: WorkspaceId
  readonly userId: UserId
  readonly role: Role
}): OperationCaller => ({
  workspaceId: place.workspaceId,
  userId: place.userId,
  actor: { _tag: "SessionActor", userId: place.userId },
  role: place.role,
  door: "api"
})
