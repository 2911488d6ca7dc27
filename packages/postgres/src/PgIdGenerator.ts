import { randomFillSync } from "node:crypto"
import { IdGenerator } from "@margin/core/kernel/IdGenerator"
import { idPrefixes } from "@margin/core/kernel/Ids"
import { Effect, Layer } from "effect"

/**
 * Ids like `rec_01jh8x2k7d3q9v6m4t1c5b0a8z`: the prefix of the kind, then a ULID-like 26 characters
 * of lowercase Crockford base32: 48 bits of epoch milliseconds (10 characters), then 80 random bits
 * (16 characters). Fixed width, so text order (COLLATE "C") is creation order, and processes never
 * need to coordinate. Within one process the ids are strictly increasing: an id drawn in the same
 * millisecond as the previous one (or after the clock stepped back) is the previous one plus one.
 */
const alphabet = "0123456789abcdefghjkmnpqrstvwxyz"
const randomBytes = 10

export interface Stamp {
  readonly time: number
  /** 80 bits, big-endian. */
  readonly random: Uint8Array
}

const codes = Array.from(alphabet, (char) => char.charCodeAt(0))

/** Writes `value` (a non-negative integer below 2^53) as `count` base32 digits ending before `end`. */
const writeDigits = (out: Array<number>, end: number, count: number, value: number): void => {
  let rest = value
  for (let index = end - 1; index >= end - count; index--) {
    out[index] = codes[rest % 32] ?? 0
    rest = Math.floor(rest / 32)
  }
}

/** 40 bits (5 bytes from `offset`) as one number. */
const read40 = (bytes: Uint8Array, offset: number): number =>
  (bytes[offset] ?? 0) * 2 ** 32 +
  (bytes[offset + 1] ?? 0) * 2 ** 24 +
  (bytes[offset + 2] ?? 0) * 2 ** 16 +
  (bytes[offset + 3] ?? 0) * 2 ** 8 +
  (bytes[offset + 4] ?? 0)

/** `<prefix>_` then 10 digits of time and 16 of randomness. */
export const formatId = (prefix: string, stamp: Stamp): string => {
  const digits = new Array<number>(26)
  writeDigits(digits, 10, 10, stamp.time)
  writeDigits(digits, 18, 8, read40(stamp.random, 0))
  writeDigits(digits, 26, 8, read40(stamp.random, 5))
  return `${prefix}_${String.fromCharCode(...digits)}`
}

/** `random + 1`, or null when it wraps around. */
const increment = (random: Uint8Array): Uint8Array | null => {
  const next = Uint8Array.from(random)
  for (let index = next.length - 1; index >= 0; index--) {
    const byte = (next[index] ?? 0) + 1
    next[index] = byte & 0xff
    if (byte <= 0xff) return next
  }
  return null
}

/** The stamp after `last` for a clock reading of `now`, with `fresh` random bits when time moved on. Pure. */
export const nextStamp = (last: Stamp | null, now: number, fresh: Uint8Array): Stamp => {
  if (last === null || now > last.time) return { time: now, random: fresh }
  const random = increment(last.random)
  return random === null ? { time: last.time + 1, random: fresh } : { time: last.time, random }
}

/** Random bytes drawn in blocks: one system call per 512 ids rather than one each. */
const randomSource = (): (() => Uint8Array) => {
  const pool = new Uint8Array(randomBytes * 512)
  let offset = pool.length
  return () => {
    if (offset === pool.length) {
      randomFillSync(pool)
      offset = 0
    }
    const bytes = pool.slice(offset, offset + randomBytes)
    offset += randomBytes
    return bytes
  }
}

export const layer: Layer.Layer<IdGenerator> = Layer.sync(IdGenerator, () => {
  const fresh = randomSource()
  let last: Stamp | null = null
  return IdGenerator.of({
    // One step, run when the effect runs (`Clock.currentTimeMillis`, a flatMap and a sync are four).
    next: (kind) =>
      Effect.clockWith((clock) => {
        last = nextStamp(last, clock.currentTimeMillisUnsafe(), fresh())
        return Effect.succeed(formatId(idPrefixes[kind], last))
      })
  })
})
