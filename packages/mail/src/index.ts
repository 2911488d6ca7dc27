/**
 * @margin/mail: the adapters of core's Mailer port (SMTP, or .eml files) and their settings. Its
 * test kit (a local SMTP server) is under "@margin/mail/testing/*".
 */
export { MailConfigError, MailUnavailable } from "./MailErrors.ts"
export * as MailerLayer from "./MailerLayer.ts"
export * as MailSettings from "./MailSettings.ts"
