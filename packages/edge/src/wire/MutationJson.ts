import { Schema } from "effect"

/** docs/contract.md, "States and repeats": a command that had already taken effect answers exactly this. */
export const IdempotentRepeatJson = Schema.Struct({
  ok: Schema.Literal(true),
  idempotent: Schema.Literal(true)
}).annotate({ identifier: "IdempotentRepeat" })

export const idempotentRepeat = { ok: true, idempotent: true } as const

/** The fields a command that took effect now answers along with its resource. */
export const tookEffectFields = { ok: Schema.Literal(true), idempotent: Schema.Literal(false) }
