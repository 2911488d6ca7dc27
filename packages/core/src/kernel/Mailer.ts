import { Context, type Effect, Schema } from "effect"
import type { Timestamp } from "./Timestamp.ts"

/** One plain-text e-mail; the adapter adds the sender (MAIL_FROM). */
export interface MailMessage {
  /**
   * The same message composed again has the same key: adapters derive the Message-ID and the
   * .eml file name from it, so a message sent twice is recognisably the same one.
   */
  readonly key: string
  readonly to: string
  readonly subject: string
  readonly text: string
  readonly date: Timestamp
}

/** How messages leave: handed to an SMTP server, or written as .eml files for someone to send. */
export type MailTransport = "smtp" | "eml"

/** The message was not accepted (the server refused the recipient, the connection failed); `reason` says why. */
export class MailNotSent extends Schema.TaggedError<MailNotSent>()("MailNotSent", {
  to: Schema.String,
  reason: Schema.String
}) {}

export class Mailer extends Context.Service<
  Mailer,
  {
    readonly transport: MailTransport
    /** Succeeds once the SMTP server accepted the message, or its .eml file is written. */
    readonly send: (message: MailMessage) => Effect.Effect<void, MailNotSent>
  }
>()("margin/core/Mailer") {}
