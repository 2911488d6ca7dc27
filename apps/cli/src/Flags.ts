import { UserId, WorkspaceId } from "@margin/core/kernel/Ids"
import { Schema } from "effect"
import { Argument, Flag } from "effect/cli"

/** Flags several commands share. */

/** An id with `prefix` (`ws_…`), refused as a usage error otherwise. */
export const idOf = (prefix: string) =>
  Schema.String.pipe(
    Schema.check(
      Schema.isPattern(new RegExp(`^${prefix}_[0-9A-Za-z_-]{1,64}$`), { message: `expected an id like ${prefix}_…` })
    )
  )

export const workspaceFlag = Flag.String("workspace").pipe(
  Flag.withDescription("The workspace id (ws_…)"),
  Flag.withSchema(idOf("ws").pipe(Schema.decodeTo(WorkspaceId)))
)

export const userFlag = Flag.String("user").pipe(
  Flag.withDescription("The user id (usr_…)"),
  Flag.withSchema(idOf("usr").pipe(Schema.decodeTo(UserId)))
)

/** A positive whole number of `unit`. */
export const positiveIntFlag = (name: string, unit: string) =>
  Flag.Int(name).pipe(
    Flag.withDescription(`In ${unit}`),
    Flag.withSchema(Schema.Int.pipe(Schema.check(Schema.isGreaterThan(0, { message: `--${name} must be above 0` }))))
  )

/** An id given as the command's one argument: `marginctl token show tok_…`. */
export const idArgument = (prefix: string, what: string) =>
  Argument.String(`${prefix}-id`).pipe(
    Argument.withDescription(`The ${what} id (${prefix}_…)`),
    Argument.withSchema(idOf(prefix))
  )
