import { MailSettings } from "@margin/mail"
import { DatabaseConfig } from "@margin/postgres"
import { Effect } from "effect"

/**
 * The e-mail settings of the operator's commands (SMTP_URL, MAIL_FROM), their .eml files under the
 * process's data directory: DATA_DIR as the database reads it, a blank one taken as unset.
 */
export const settings = (folder: string) =>
  Effect.gen(function* () {
    const dataDir = yield* DatabaseConfig.dataDirVariable
    return yield* MailSettings.load(folder, dataDir.trim() === "" ? DatabaseConfig.defaultDataDir : dataDir)
  })
