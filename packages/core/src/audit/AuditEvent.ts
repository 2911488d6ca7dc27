import { Schema } from "effect"
import { AuditEventId, WorkspaceId } from "../kernel/Ids.ts"
import { Timestamp } from "../kernel/Timestamp.ts"

/** Every mutation leaves one: who did what to which resource, and the status before and after. */
export const AuditEvent = Schema.Struct({
  id: AuditEventId,
  workspaceId: WorkspaceId,
  actor: Schema.String,
  action: Schema.String,
  resourceType: Schema.String,
  resourceId: Schema.String,
  beforeStatus: Schema.NullOr(Schema.String),
  afterStatus: Schema.NullOr(Schema.String),
  at: Timestamp
})
export type AuditEvent = typeof AuditEvent.Type
