import { Schema } from "effect"

/** SMTP_URL or MAIL_FROM cannot be used as given. The message names the variable and never echoes a password. */
export class MailConfigError extends Schema.TaggedError<MailConfigError>()("MailConfigError", {
  message: Schema.String
}) {}

/** The SMTP server cannot be reached or refuses our login; nothing was sent. */
export class MailUnavailable extends Schema.TaggedError<MailUnavailable>()("MailUnavailable", {
  message: Schema.String
}) {}

/** What went wrong, in the words of the SMTP server or the system (`550 …`, ECONNREFUSED), for messages to people. */
export const reasonOf = (cause: unknown): string =>
  cause instanceof Error && cause.message !== "" ? cause.message : String(cause)
