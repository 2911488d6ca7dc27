import { Schema } from "effect"
import { SupportSessionId, WorkspaceId } from "../kernel/Ids.ts"
import { Timestamp } from "../kernel/Timestamp.ts"

/** A platform support session against one workspace. Its secrets never leave the adapter. */
export const SupportSession = Schema.Struct({
  id: SupportSessionId,
  workspaceId: WorkspaceId,
  adminEmail: Schema.String,
  startedAt: Timestamp,
  expiresAt: Timestamp,
  closedAt: Schema.NullOr(Timestamp)
})
export type SupportSession = typeof SupportSession.Type

export const isSupportSessionActive = (session: SupportSession, now: number): boolean =>
  session.closedAt === null && session.startedAt <= now && now < session.expiresAt
