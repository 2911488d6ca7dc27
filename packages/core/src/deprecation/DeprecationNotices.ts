import { Clock, Context, Effect, Layer, Result } from "effect"
import type { RepositoryError } from "../kernel/Errors.ts"
import { Mailer, type MailTransport } from "../kernel/Mailer.ts"
import type { Deprecation } from "./Deprecation.ts"
import { composeNotice, type DeprecationNoticeRecord, type NoticeRecipient } from "./DeprecationNotice.ts"
import { DeprecationNoticeRepository } from "./DeprecationNoticeRepository.ts"

/** What one `notify` did. */
export interface NotifyReport {
  readonly transport: MailTransport
  /** Sent now, and recorded. */
  readonly notified: ReadonlyArray<{ readonly recipient: NoticeRecipient; readonly record: DeprecationNoticeRecord }>
  /** Owners and admins notified of the operation by an earlier call. */
  readonly alreadyNotified: number
  /** Not accepted by the transport: not recorded, so the next call tries them again. */
  readonly failed: ReadonlyArray<{ readonly recipient: NoticeRecipient; readonly reason: string }>
  /**
   * Claimed by another run that is sending them now, or that stopped less than `claimLeaseMs`
   * ago: not sent by this call; a call after the claim lapses sends those still untold.
   */
  readonly inProgress: ReadonlyArray<NoticeRecipient>
}

/**
 * How long a claim keeps other runs off a notice: one send (SMTP: 10 s to connect and greet, 30 s
 * of silence at most) with a wide margin. A run that dies mid-send delays that notice this long.
 */
export const claimLeaseMs = 10 * 60 * 1000

/** Messages handed to the transport at once: a pooled SMTP connection or a few file writes each. */
const concurrency = 4

/**
 * Tells every owner and admin of every workspace, once per operation, that an operation is
 * deprecated (docs/contract.md, "Versioning and deprecation"). Each notice is claimed (a lease of `claimLeaseMs`), sent, then
 * recorded: two calls at once never both send one, since the second finds the first's claim; a
 * failed send drops its claim, so the next call tries it again; a process that dies between the
 * claim and the record leaves a claim that lapses, and a call after that sends the message again
 * (told twice rather than never).
 */
export class DeprecationNotices extends Context.Service<
  DeprecationNotices,
  {
    readonly notify: (deprecation: Deprecation) => Effect.Effect<NotifyReport, RepositoryError>
  }
>()("margin/core/DeprecationNotices") {
  static readonly layer: Layer.Layer<DeprecationNotices, never, DeprecationNoticeRepository | Mailer> = Layer.effect(
    DeprecationNotices,
    Effect.gen(function* () {
      const notices = yield* DeprecationNoticeRepository
      const mailer = yield* Mailer
      const notifyOne = (deprecation: Deprecation, recipient: NoticeRecipient) =>
        Effect.gen(function* () {
          const now = yield* Clock.currentTimeMillis
          const claimed = yield* notices.claim({
            operation: deprecation.operation,
            workspaceId: recipient.workspaceId,
            userId: recipient.userId,
            email: recipient.email,
            transport: mailer.transport,
            at: now,
            until: now + claimLeaseMs
          })
          if (claimed === "sent") return { _tag: "SentMeanwhile", recipient } as const
          if (claimed === "held") return { _tag: "InProgress", recipient } as const
          const sent = yield* Effect.result(mailer.send(composeNotice(deprecation, recipient, now)))
          if (Result.isFailure(sent)) {
            yield* Effect.logWarning(`deprecation notice to ${sent.failure.to} not sent: ${sent.failure.reason}`)
            yield* notices.release(deprecation.operation, recipient.workspaceId, recipient.userId)
            return { _tag: "Failed", recipient, reason: sent.failure.reason } as const
          }
          const record: DeprecationNoticeRecord = {
            operation: deprecation.operation,
            workspaceId: recipient.workspaceId,
            userId: recipient.userId,
            email: recipient.email,
            notifiedAt: now,
            transport: mailer.transport
          }
          yield* notices.record(record)
          return { _tag: "Notified", recipient, record } as const
        })
      return DeprecationNotices.of({
        notify: Effect.fn("DeprecationNotices.notify")(function* (deprecation) {
          const recipients = yield* notices.recipients(deprecation.operation)
          const pending = recipients.filter((recipient) => recipient.notifiedAt === null)
          const outcomes = yield* Effect.forEach(pending, (recipient) => notifyOne(deprecation, recipient), {
            concurrency
          })
          return {
            transport: mailer.transport,
            notified: outcomes.flatMap((outcome) => (outcome._tag === "Notified" ? [outcome] : [])),
            // Told before this call, or by another call since this one read the list.
            alreadyNotified:
              recipients.length -
              pending.length +
              outcomes.filter((outcome) => outcome._tag === "SentMeanwhile").length,
            failed: outcomes.flatMap((outcome) => (outcome._tag === "Failed" ? [outcome] : [])),
            inProgress: outcomes.flatMap((outcome) => (outcome._tag === "InProgress" ? [outcome.recipient] : []))
          }
        })
      })
    })
  )
}
