import { Mailer, MailNotSent } from "@margin/core/kernel/Mailer"
import { Effect, Layer, Redacted } from "effect"
import { createTransport } from "nodemailer"
import type SMTPPool from "nodemailer/lib/smtp-pool"
import { MailUnavailable, reasonOf } from "./MailErrors.ts"
import { toMailOptions } from "./MailOptions.ts"

/** `smtp://host:port`, without user or password. */
export const describeSmtpUrl = (url: Redacted.Redacted<string>): string => {
  const parsed = new URL(Redacted.value(url))
  return `${parsed.protocol}//${parsed.host}`
}

/** Connections kept open to the server: as many as the messages a use case sends at once. */
const maxConnections = 4

/** nodemailer's pool settings from SMTP_URL (validated by MailSettings): the port defaults to 587, or 465 for smtps. */
const poolOptions = (url: URL): SMTPPool.Options => ({
  pool: true,
  host: url.hostname,
  ...(url.port === "" ? {} : { port: Number(url.port) }),
  secure: url.protocol === "smtps:",
  ...(url.username === ""
    ? {}
    : { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }),
  maxConnections,
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 30_000
})

/**
 * Mail handed to an SMTP server (nodemailer, pooled connections). Building the layer connects and
 * logs in once, so a wrong SMTP_URL fails before anything is sent; the pool closes with the scope.
 * A message succeeds when the server accepted it for its recipient.
 */
export const layer = (url: Redacted.Redacted<string>, from: string): Layer.Layer<Mailer, MailUnavailable> =>
  Layer.effect(
    Mailer,
    Effect.gen(function* () {
      const server = describeSmtpUrl(url)
      const transport = yield* Effect.acquireRelease(
        Effect.sync(() => createTransport(poolOptions(new URL(Redacted.value(url))))),
        (transport) => Effect.sync(() => transport.close())
      )
      yield* Effect.tryPromise({
        try: () => transport.verify(),
        catch: (cause) => new MailUnavailable({ message: `cannot use the SMTP server ${server}: ${reasonOf(cause)}` })
      })
      return Mailer.of({
        transport: "smtp",
        send: (message) =>
          Effect.tryPromise({
            try: () => transport.sendMail(toMailOptions(message, from)),
            catch: (cause) => new MailNotSent({ to: message.to, reason: reasonOf(cause) })
          }).pipe(Effect.asVoid, Effect.withSpan("SmtpMailer.send"))
      })
    })
  )
