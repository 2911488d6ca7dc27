import { createHash, randomBytes, timingSafeEqual } from "node:crypto"
import type { UserId } from "@margin/core/Ids"
import { UserId as UserIdSchema } from "@margin/core/Ids"
import { Redacted } from "effect"
import type { HttpServerRequest } from "effect/http"
import type { OAuthLoginSettingsShape } from "./OAuthLoginSettings.ts"
import { type PageCookie, pageCookie } from "./OAuthPages.ts"
import { signValue, verifySigned, verifyValue } from "./SignedValue.ts"

/** The browser's sign-in: a signed user id, for the consent pages only (path /oauth). */
const loginCookie = "margin_login"
/** Double-submit CSRF token: this cookie (SameSite=Strict) and the form's `csrf` field must agree. */
const csrfCookie = "margin_csrf"

export const loginLifetimeMs = 8 * 60 * 60_000
export const linkLifetimeMs = 10 * 60_000

/** The signed-in user of this browser, if its cookie is ours and current. */
export const signedInUser = (
  settings: OAuthLoginSettingsShape,
  request: HttpServerRequest.HttpServerRequest,
  now: number
): UserId | undefined => {
  const cookie = request.cookies[loginCookie]
  const userId = cookie === undefined ? undefined : verifyValue(Redacted.value(settings.key), "login", cookie, now)
  return userId === undefined ? undefined : UserIdSchema.make(userId)
}

export const loginCookieFor = (settings: OAuthLoginSettingsShape, userId: UserId, now: number): PageCookie =>
  pageCookie(
    loginCookie,
    signValue(Redacted.value(settings.key), "login", userId, now + loginLifetimeMs),
    loginLifetimeMs / 1000,
    "lax"
  )

/**
 * The link a sign-in e-mail carries: a random nonce and the user, signed, for 10 minutes. The nonce
 * makes each link distinct, so that its use can be recorded (by its hash) and refused a second time.
 */
export const linkToken = (settings: OAuthLoginSettingsShape, userId: UserId, now: number): string =>
  signValue(
    Redacted.value(settings.key),
    "link",
    `${randomBytes(16).toString("base64url")}:${userId}`,
    now + linkLifetimeMs
  )

/** What a current link of ours names: its user, the hex SHA-256 of its nonce, and its expiry. */
export interface SignInLink {
  readonly userId: UserId
  readonly nonceHash: string
  readonly expiresAt: number
}

export const linkOf = (settings: OAuthLoginSettingsShape, token: string, now: number): SignInLink | undefined => {
  const signed = verifySigned(Redacted.value(settings.key), "link", token, now)
  const separator = signed?.value.indexOf(":") ?? -1
  if (signed === undefined || separator <= 0) return undefined
  return {
    userId: UserIdSchema.make(signed.value.slice(separator + 1)),
    nonceHash: createHash("sha256").update(signed.value.slice(0, separator)).digest("hex"),
    expiresAt: signed.expiresAt
  }
}

/** This browser's CSRF token (kept if it has one), and the cookie that sets it when new. */
export const csrfOf = (
  request: HttpServerRequest.HttpServerRequest
): { readonly token: string; readonly cookies: ReadonlyArray<PageCookie> } => {
  const current = request.cookies[csrfCookie]
  if (current !== undefined && /^[A-Za-z0-9_-]{43}$/.test(current)) return { token: current, cookies: [] }
  const token = randomBytes(32).toString("base64url")
  return { token, cookies: [pageCookie(csrfCookie, token, loginLifetimeMs / 1000, "strict")] }
}

/** True when the form's token is this browser's (compared in constant time). */
export const csrfMatches = (request: HttpServerRequest.HttpServerRequest, formToken: string | undefined): boolean => {
  const cookie = request.cookies[csrfCookie]
  if (cookie === undefined || formToken === undefined) return false
  const a = Buffer.from(cookie)
  const b = Buffer.from(formToken)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** Only back to an authorization request of this server: a sign-in never redirects elsewhere. */
export const safeReturnTo = (returnTo: string | undefined): string | undefined =>
  returnTo?.startsWith("/oauth/authorize?") && !returnTo.includes("\\") ? returnTo : undefined
