import { createHmac, timingSafeEqual } from "node:crypto"

/**
 * A value with an expiry, signed with HMAC-SHA256: `<base64url payload>.<expiry ms>.<signature>`.
 * For the sign-in link and cookie: tamper-proof, and worthless after `expiresAt`.
 */
const signatureOf = (key: Uint8Array, body: string): string =>
  createHmac("sha256", key).update(body).digest("base64url")

export const signValue = (key: Uint8Array, purpose: string, value: string, expiresAt: number): string => {
  const body = `${Buffer.from(value, "utf8").toString("base64url")}.${expiresAt}`
  return `${body}.${signatureOf(key, `${purpose}.${body}`)}`
}

/** The signed value and its expiry, when the signature is ours for `purpose` and it has not expired at `now`. */
export const verifySigned = (
  key: Uint8Array,
  purpose: string,
  signed: string,
  now: number
): { readonly value: string; readonly expiresAt: number } | undefined => {
  const [payload, expiry, signature] = signed.split(".")
  if (payload === undefined || expiry === undefined || signature === undefined) return undefined
  const expected = Buffer.from(signatureOf(key, `${purpose}.${payload}.${expiry}`))
  const given = Buffer.from(signature)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined
  const expiresAt = Number(expiry)
  if (!(expiresAt > now)) return undefined
  return { value: Buffer.from(payload, "base64url").toString("utf8"), expiresAt }
}

/** The signed value, when the signature is ours for `purpose` and it has not expired at `now`. */
export const verifyValue = (key: Uint8Array, purpose: string, signed: string, now: number): string | undefined =>
  verifySigned(key, purpose, signed, now)?.value
