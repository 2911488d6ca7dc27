import { randomBytes } from "node:crypto"
import { mkdir, rename, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { Mailer, MailNotSent } from "@margin/core/kernel/Mailer"
import { Effect, Layer } from "effect"
import MailComposer from "nodemailer/lib/mail-composer"
import { reasonOf } from "./MailErrors.ts"
import { toMailOptions } from "./MailOptions.ts"
import { readableEml } from "./ReadableEml.ts"

/**
 * Mail written as RFC 5322 `.eml` files into `directory` (created, private to the user), one file
 * per message named after its key: nothing leaves the machine until an operator sends them. A
 * message written again replaces its file. Each file is written whole, then renamed into place
 * (from a partial file of its own, so that concurrent sends of one key never collide). Its body is
 * the text as written (`readableEml`), so a link can be copied from the file.
 */
export const layer = (directory: string, from: string): Layer.Layer<Mailer> =>
  Layer.succeed(
    Mailer,
    Mailer.of({
      transport: "eml",
      send: (message) =>
        Effect.tryPromise({
          try: async () => {
            const composed = await new MailComposer(toMailOptions(message, from)).compile().build()
            const bytes = readableEml(composed, message.text)
            await mkdir(directory, { recursive: true, mode: 0o700 })
            const path = join(directory, `${message.key}.eml`)
            // A partial file of its own: two sends of one key at once each rename a whole file, the last wins.
            const partial = `${path}.${randomBytes(6).toString("hex")}.partial`
            await writeFile(partial, bytes, { mode: 0o600 })
            await rename(partial, path)
          },
          catch: (cause) => new MailNotSent({ to: message.to, reason: reasonOf(cause) })
        }).pipe(Effect.withSpan("EmlMailer.send"))
    })
  )
