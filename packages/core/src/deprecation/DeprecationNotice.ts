import type { Role } from "../access/Role.ts"
import type { UserId, WorkspaceId } from "../kernel/Ids.ts"
import type { MailMessage, MailTransport } from "../kernel/Mailer.ts"
import type { Timestamp } from "../kernel/Timestamp.ts"
import type { Deprecation } from "./Deprecation.ts"

/** An owner or admin of a workspace, who is told of deprecated operations. */
export interface NoticeRecipient {
  readonly workspaceId: WorkspaceId
  readonly workspaceName: string
  readonly userId: UserId
  readonly email: string
  readonly emailConfirmed: boolean
  readonly role: Role
  /** When they were notified of the operation asked about; null when not yet. */
  readonly notifiedAt: Timestamp | null
}

/** A notice that was sent: one per (operation, workspace, user). */
export interface DeprecationNoticeRecord {
  readonly operation: string
  readonly workspaceId: WorkspaceId
  readonly userId: UserId
  readonly email: string
  readonly notifiedAt: Timestamp
  readonly transport: MailTransport
}

/**
 * One send of a notice, claimed until `until` (a lease): while it holds, no other run sends to that
 * (operation, workspace, user); once it lapses unsent (the run died), the next run may claim it.
 */
export interface DeprecationNoticeClaim {
  readonly operation: string
  readonly workspaceId: WorkspaceId
  readonly userId: UserId
  readonly email: string
  readonly transport: MailTransport
  /** When the claim is made: a claim that lapsed by then is taken over. */
  readonly at: Timestamp
  readonly until: Timestamp
}

/** The e-mail that tells one owner or admin of one workspace that `deprecation.operation` is deprecated. */
export const composeNotice = (deprecation: Deprecation, recipient: NoticeRecipient, now: Timestamp): MailMessage => ({
  key: `deprecation.${deprecation.operation}.${recipient.workspaceId}.${recipient.userId}`,
  to: recipient.email,
  subject: `margin-service API: ${deprecation.operation} is deprecated and may be removed after ${deprecation.sunset}`,
  text: [
    "Hello,",
    "",
    `you receive this message as ${recipient.role === "owner" ? "an owner" : "an admin"} of the workspace "${recipient.workspaceName}" (${recipient.workspaceId}) on margin-service.`,
    "",
    `The v1 API operation ${deprecation.operation} is deprecated as of ${deprecation.notice}.`,
    `It keeps working until at least ${deprecation.sunset}; after that day it may be removed.`,
    deprecation.replacement === undefined
      ? "There is no replacement for it."
      : `Use this instead: ${deprecation.replacement}`,
    ...(deprecation.link === undefined ? [] : [`Details: ${deprecation.link}`]),
    "",
    "Until then its responses carry the headers Deprecation and Sunset (RFC 9745, RFC 8594), and the",
    "OpenAPI description (/api/v1/openapi.json) marks it deprecated: true.",
    "",
    "This notice is sent once for this operation to each owner and admin of each workspace.",
    ""
  ].join("\n"),
  date: now
})
