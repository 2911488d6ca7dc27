import type { Mailer } from "@margin/core/kernel/Mailer"
import { type Config, Effect, Layer } from "effect"
import * as EmlMailer from "./EmlMailer.ts"
import type { MailConfigError, MailUnavailable } from "./MailErrors.ts"
import * as MailSettings from "./MailSettings.ts"
import * as SmtpMailer from "./SmtpMailer.ts"

/** The Mailer `settings` ask for: SMTP, or .eml files in their directory. */
export const layerFrom = (settings: MailSettings.MailSettings): Layer.Layer<Mailer, MailUnavailable> =>
  settings._tag === "Smtp"
    ? SmtpMailer.layer(settings.url, settings.from)
    : EmlMailer.layer(settings.directory, settings.from)

/** The Mailer the environment asks for (MailSettings.load): SMTP with SMTP_URL, .eml files under `<dataDir>/outbox/<folder>` without. */
export const layerConfig = (
  folder: string,
  dataDir: string
): Layer.Layer<Mailer, MailConfigError | MailUnavailable | Config.ConfigError> =>
  Layer.unwrap(Effect.map(MailSettings.load(folder, dataDir), layerFrom))
