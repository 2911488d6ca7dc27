import type { MailMessage } from "@margin/core/kernel/Mailer"
import type Mail from "nodemailer/lib/mailer"
import { domainOf } from "./MailSettings.ts"

/**
 * A message as nodemailer takes it, the same for SMTP and .eml: plain text, the date the use case
 * gave, and a Message-ID made of the message's key, so that a message sent twice (a crash between
 * the send and its record) carries the same Message-ID both times.
 */
export const toMailOptions = (message: MailMessage, from: string): Mail.Options => ({
  from,
  to: message.to,
  subject: message.subject,
  text: message.text,
  date: new Date(message.date),
  messageId: `<${message.key}@${domainOf(from)}>`
})
