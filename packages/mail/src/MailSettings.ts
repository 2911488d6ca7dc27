import { join, resolve } from "node:path"
import { Config, Effect, Option, Redacted } from "effect"
import addressparser from "nodemailer/lib/addressparser"
import { MailConfigError } from "./MailErrors.ts"

/**
 * Where e-mail goes:
 * - `Smtp`: SMTP_URL names a server (`smtp://` with STARTTLS when offered, `smtps://` for TLS
 *   from the start; `user:password@` to log in);
 * - `Eml`: no SMTP_URL; each message is written as an RFC 5322 `.eml` file under
 *   `<data directory>/outbox/<folder>` for an operator to send (the process's DATA_DIR: runtime
 *   passes it).
 * Either way the sender is MAIL_FROM (default `margin-service <no-reply@localhost>`).
 */
export type MailSettings =
  | { readonly _tag: "Smtp"; readonly url: Redacted.Redacted<string>; readonly from: string }
  | { readonly _tag: "Eml"; readonly directory: string; readonly from: string }

export const defaultFrom = "margin-service <no-reply@localhost>"

const example = "smtp://user:password@mail.example.com:587"

/** Checks an SMTP_URL without ever putting the URL (and its password) into the message. */
export const validateSmtpUrl = (raw: string): Effect.Effect<Redacted.Redacted<string>, MailConfigError> => {
  const invalid = (why: string) =>
    Effect.fail(new MailConfigError({ message: `SMTP_URL ${why}: expected a URL like ${example}` }))
  if (!URL.canParse(raw)) return invalid("is not a URL")
  const url = new URL(raw)
  if (url.protocol !== "smtp:" && url.protocol !== "smtps:") {
    return invalid(`has the scheme "${url.protocol.slice(0, -1)}", not smtp or smtps`)
  }
  if (url.hostname === "") return invalid("names no host")
  return Effect.succeed(Redacted.make(raw))
}

/** MAIL_FROM must be one address (`Name <address@domain>` or `address@domain`). */
export const validateFrom = (raw: string): Effect.Effect<string, MailConfigError> => {
  const addresses = addressparser(raw, { flatten: true })
  const address = addresses[0]?.address ?? ""
  return addresses.length === 1 && /^[^\s@]+@[^\s@]+$/.test(address)
    ? Effect.succeed(raw.trim())
    : Effect.fail(new MailConfigError({ message: `MAIL_FROM "${raw}" is not one e-mail address like ${defaultFrom}` }))
}

/** The domain of the sender's address: the right-hand side of the Message-IDs we make. */
export const domainOf = (from: string): string => {
  const address = addressparser(from, { flatten: true })[0]?.address ?? ""
  return address.slice(address.lastIndexOf("@") + 1) || "localhost"
}

/**
 * Reads SMTP_URL and MAIL_FROM; `folder` is where under `<dataDir>/outbox/` the .eml files of this
 * kind of mail go. A variable set to the empty string counts as unset.
 */
export const load = (
  folder: string,
  dataDir: string
): Effect.Effect<MailSettings, MailConfigError | Config.ConfigError> =>
  Effect.gen(function* () {
    const fromVariable = yield* Config.String("MAIL_FROM").pipe(Config.withDefault(""))
    const from = yield* validateFrom(fromVariable.trim() === "" ? defaultFrom : fromVariable)
    const url = yield* Config.option(Config.String("SMTP_URL"))
    if (Option.isSome(url) && url.value.trim() !== "") {
      return { _tag: "Smtp", url: yield* validateSmtpUrl(url.value), from } as const
    }
    return { _tag: "Eml", directory: join(resolve(dataDir), "outbox", folder), from } as const
  })
