import { UserId, WorkspaceId } from "@margin/core/Ids"
import { Schema } from "effect"
import { Flag } from "effect/cli"

/** Flags several commands share. */

const idOf = (prefix: string) =>
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
