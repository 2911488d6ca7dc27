import { Clock, Context, Effect, Layer, Result } from "effect"
import type { Deprecation } from "./Deprecation.ts"
import { composeNotice, type DeprecationNoticeRecord, type NoticeRecipient } from "./DeprecationNotice.ts"
import type { RepositoryError } from "./Errors.ts"
import { DeprecationNoticeRepository } from "./ports/DeprecationNoticeRepository.ts"
import { Mailer, type MailTransport } from "./ports/Mailer.ts"

/** What one `notify` did. */
export interface NotifyReport {
  readonly transport: MailTransport
  /** Sent now, and recorded. */
  readonly notified: ReadonlyArray<{ readonly recipient: NoticeRecipient; readonly record: DeprecationNoticeRecord }>
  /** Owners and admins notified of the operation by an earlier call. */
  readonly alreadyNotified: number
  /** Not accepted by the transport: not recorded, so the next call tries them again. */
  readonly failed: ReadonlyArray<{ readonly recipient: NoticeRecipient; readonly reason: string }>
}

/** Messages handed to the transport at once: a pooled SMTP connection or a few file writes each. */
const concurrency = 4

/**
 * Tells every owner and admin of every workspace, once per operation, that an operation is
 * deprecated (spec section 9). A notice is recorded after the transport accepted it: a failed
 * send is tried again by the next call; a process that dies between the send and the record
 * sends that one message again next time.
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
          const sent = yield* Effect.result(mailer.send(composeNotice(deprecation, recipient, now)))
          if (Result.isFailure(sent)) {
            yield* Effect.logWarning(`deprecation notice to ${sent.failure.to} not sent: ${sent.failure.reason}`)
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
            alreadyNotified: recipients.length - pending.length,
            failed: outcomes.flatMap((outcome) => (outcome._tag === "Failed" ? [outcome] : []))
          }
        })
      })
    })
  )
}
