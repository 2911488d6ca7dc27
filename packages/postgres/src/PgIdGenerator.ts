import { randomBytes } from "node:crypto"
import { idPrefixes } from "@margin/core/Ids"
import { IdGenerator } from "@margin/core/ports/IdGenerator"
import { Clock, Effect, Layer } from "effect"

/**
 * Ids like `rec_01jh8x2k7d3q9v6m4t1c5b0a8z`: the prefix of the kind, then a ULID-like 26 characters
 * of lowercase Crockford base32: 48 bits of epoch milliseconds, then 80 random bits. Fixed width,
 * so text order (COLLATE "C") is creation order; several processes never need to coordinate.
 * Within one process the ids are strictly increasing: an id drawn in the same millisecond as the
 * previous one (or after the clock stepped back) is the previous one plus one.
 */
const alphabet = "0123456789abcdefghjkmnpqrstvwxyz"
const timeChars = 10
const randomChars = 16
const randomBits = 80n
const randomSpace = 1n << randomBits

/** `value` as `length` base32 characters, most significant first. */
export const encodeBase32 = (value: bigint, length: number): string => {
  let out = ""
  let rest = value
  for (let n = 0; n < length; n++) {
    out = alphabet.charAt(Number(rest & 31n)) + out
    rest >>= 5n
  }
  return out
}

const randomPart = (): bigint => BigInt(`0x${randomBytes(Number(randomBits / 8n)).toString("hex")}`)

/** The next (time, random) pair after `last`, for a clock reading of `now`. Pure. */
export const nextStamp = (
  last: { readonly time: number; readonly random: bigint } | null,
  now: number,
  fresh: bigint
): { readonly time: number; readonly random: bigint } => {
  if (last === null || now > last.time) return { time: now, random: fresh }
  const random = last.random + 1n
  return random < randomSpace ? { time: last.time, random } : { time: last.time + 1, random: fresh }
}

export const formatId = (prefix: string, stamp: { readonly time: number; readonly random: bigint }): string =>
  `${prefix}_${encodeBase32(BigInt(stamp.time), timeChars)}${encodeBase32(stamp.random, randomChars)}`

export const layer: Layer.Layer<IdGenerator> = Layer.sync(IdGenerator, () => {
  let last: { readonly time: number; readonly random: bigint } | null = null
  return IdGenerator.of({
    next: (kind) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.sync(() => {
          last = nextStamp(last, now, randomPart())
          return formatId(idPrefixes[kind], last)
        })
      )
  })
})
