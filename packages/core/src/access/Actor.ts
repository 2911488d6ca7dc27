import { Schema } from "effect"
import { TokenId, UserId } from "../kernel/Ids.ts"

/** Who asked for a mutation: recorded on the entity and in its audit event. */
export const Actor = Schema.Union([
  Schema.TaggedStruct("TokenActor", { tokenId: TokenId, userId: UserId }),
  Schema.TaggedStruct("SessionActor", { userId: UserId }),
  Schema.TaggedStruct("SystemActor", { name: Schema.String })
])
export type Actor = typeof Actor.Type

export const actorUserId = (actor: Actor): UserId | null => (actor._tag === "SystemActor" ? null : actor.userId)

/** The stable text form stored in audit events and `decided_by` columns. */
export const actorLabel = (actor: Actor): string =>
  actor._tag === "TokenActor"
    ? `token:${actor.tokenId}`
    : actor._tag === "SessionActor"
      ? `user:${actor.userId}`
      : `system:${actor.name}`
