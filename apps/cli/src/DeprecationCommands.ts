import { addCalendarMonths, calendarDayOf, minimumNoticeMonths } from "@margin/core/deprecation/Deprecation"
import { claimLeaseMs, DeprecationNotices } from "@margin/core/deprecation/DeprecationNotices"
import { toIso } from "@margin/core/kernel/Timestamp"
import { deprecationsInUse } from "@margin/edge/wire"
import { CliMail, onDatabase } from "@margin/runtime/cli"
import { Clock, Effect, Layer } from "effect"
import { Command, Flag } from "effect/cli"
import { mail, postgres } from "./LazyModules.ts"
import { OperatorError } from "./OperatorError.ts"
import { report } from "./Output.ts"

/** Where under `<DATA_DIR>/outbox/` the notices go as .eml files when there is no SMTP_URL. */
const outboxFolder = "deprecations"

const notifyCommand = Command.make(
  "notify",
  {
    operation: Flag.String("operation").pipe(
      Flag.withDescription("The deprecated operation's endpoint identifier, e.g. listRuns")
    )
  },
  Effect.fn(function* ({ operation }) {
    const deprecations = yield* deprecationsInUse
    const deprecation = deprecations.get(operation)
    if (deprecation === undefined) {
      const listed = [...deprecations.keys()]
      return yield* new OperatorError({
        message: `${operation} is not a deprecated operation (deprecated: ${listed.length === 0 ? "none" : listed.join(", ")}); list it in packages/edge/src/wire/DeprecatedOperations.ts and deploy first`,
        kind: "usage"
      })
    }
    const settings = yield* CliMail.settings(outboxFolder)
    const { MailerLayer } = yield* mail
    const { PgDeprecationNoticeRepository } = yield* postgres
    const today = calendarDayOf(yield* Clock.currentTimeMillis)
    const notices = yield* DeprecationNotices.use((service) => service.notify(deprecation)).pipe(
      Effect.provide(
        DeprecationNotices.layer.pipe(
          Layer.provide([PgDeprecationNoticeRepository.layer, MailerLayer.layerFrom(settings)])
        )
      )
    )
    // Whoever is told today must still get the promised months before the sunset.
    if (notices.notified.length > 0 && (addCalendarMonths(today, minimumNoticeMonths) ?? today) > deprecation.sunset) {
      yield* Effect.logWarning(
        `notices sent on ${today} give less than ${minimumNoticeMonths} months before the sunset ${deprecation.sunset} of ${operation}: move its sunset later`
      )
    }
    yield* report(
      {
        operation,
        notice: deprecation.notice,
        sunset: deprecation.sunset,
        replacement: deprecation.replacement ?? null,
        link: deprecation.link ?? null,
        transport: notices.transport,
        outbox: settings._tag === "Eml" ? settings.directory : null,
        notified: notices.notified.map(({ recipient, record }) => ({
          workspace_id: record.workspaceId,
          user_id: record.userId,
          email: record.email,
          role: recipient.role,
          email_confirmed: recipient.emailConfirmed,
          notified_at: toIso(record.notifiedAt)
        })),
        already_notified: notices.alreadyNotified,
        failed: notices.failed.map(({ recipient, reason }) => ({
          workspace_id: recipient.workspaceId,
          user_id: recipient.userId,
          email: recipient.email,
          reason
        })),
        in_progress: notices.inProgress.map((recipient) => ({
          workspace_id: recipient.workspaceId,
          user_id: recipient.userId,
          email: recipient.email
        }))
      },
      (r) =>
        [
          `${r.operation}: deprecated on ${r.notice}, sunset ${r.sunset}.`,
          r.transport === "smtp"
            ? `Sent ${r.notified.length} notice${r.notified.length === 1 ? "" : "s"} by SMTP.`
            : `Wrote ${r.notified.length} notice${r.notified.length === 1 ? "" : "s"} as .eml files in ${r.outbox}: send them from there.`,
          ...r.notified.map((n) => `  ${n.email} (${n.role} of ${n.workspace_id})`),
          `${r.already_notified} owner${r.already_notified === 1 ? " or admin was" : "s and admins were"} notified before.`,
          ...r.failed.map((f) => `  not sent to ${f.email} (${f.workspace_id}): ${f.reason}`),
          ...r.in_progress.map((p) => `  left to another run: ${p.email} (${p.workspace_id})`)
        ].join("\n")
    )
    if (notices.failed.length > 0) {
      return yield* new OperatorError({
        message: `${notices.failed.length} of ${notices.failed.length + notices.notified.length} notices could not be sent; run the command again to retry them`,
        kind: "unavailable"
      })
    }
    // Claimed by a run that is still sending, or by one that stopped: only a later run can tell which.
    if (notices.inProgress.length > 0) {
      return yield* new OperatorError({
        message: `${notices.inProgress.length} notice${notices.inProgress.length === 1 ? " is" : "s are"} claimed by another notify run of ${operation} (running now, or stopped less than ${claimLeaseMs / 60_000} minutes ago); run the command again after that to send any it did not`,
        kind: "conflict"
      })
    }
  })
).pipe(
  Command.withDescription(
    "E-mail every workspace's owners and admins that a deprecated operation will go away, once each: a second run tells only those not told yet (a new admin, a failed send). SMTP with SMTP_URL, else .eml files under <DATA_DIR>/outbox/deprecations; sender MAIL_FROM"
  ),
  Command.withExamples([
    {
      command: "marginctl deprecation notify --operation listRuns",
      description: "Tell those not told yet; run again to retry failed sends"
    }
  ])
)

export const deprecationCommand = Command.make("deprecation").pipe(
  Command.withDescription("Deprecated v1 operations (spec section 9)"),
  Command.withExamples([{ command: "marginctl deprecation notify --operation listRuns" }]),
  Command.withSubcommands([onDatabase(notifyCommand)])
)
