import { Schema } from "effect"
import { UserId } from "../kernel/Ids.ts"
import { Timestamp } from "../kernel/Timestamp.ts"

export const Email = Schema.String.pipe(
  Schema.check(Schema.isPattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { message: "expected an e-mail address" }))
)

export const User = Schema.Struct({
  id: UserId,
  email: Email,
  emailConfirmed: Schema.Boolean,
  deletedAt: Schema.NullOr(Timestamp),
  createdAt: Timestamp
})
export type User = typeof User.Type
