import { Effect } from "effect"

/**
 * The e-mail settings of the operator's commands (SMTP_URL, MAIL_FROM), their .eml files under the
 * process's data directory: DATA_DIR as the database reads it, a blank one taken as unset. The mail
 * and database packages are imported when a command asks, not when marginctl starts.
 */
export const settings = (folder: string) =>
  Effect.gen(function* () {
    const [{ MailSettings }, { DatabaseConfig }] = yield* Effect.promise(() =>
      Promise.all([import("@margin/mail"), import("@margin/postgres")])
    )
    const dataDir = yield* DatabaseConfig.dataDirVariable
    return yield* MailSettings.load(folder, dataDir.trim() === "" ? DatabaseConfig.defaultDataDir : dataDir)
  })
