import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import type { UserId } from "@margin/core/kernel/Ids"
import { UserId as UserIdSchema } from "@margin/core/kernel/Ids"
import { unsafeCharacterIn } from "@margin/core/oauth/OAuthText"
import { Redacted } from "effect"
import type { HttpServerRequest } from "effect/http"
import type { OAuthLoginSettingsShape } from "./OAuthLoginSettings.ts"
import { type PageCookie, pageCookie } from "./OAuthPages.ts"
import { signValue, verifySigned, verifyValue } from "./SignedValue.ts"

/**
 * The browser's session on the sign-in and consent pages: one signed cookie holding a random
 * session id and, once signed in, the user. Every form's CSRF token is derived from the session
 * id (an HMAC with the sign-in key), so a token is good only with the session it was made for: a
 * cookie planted from a sibling origin cannot carry a matching token for the victim's session.
 * Over https the cookie is `__Host-` (Secure, path /, no Domain: no other host can set it).
 */
export const sessionCookie = "margin_session"

export const loginLifetimeMs = 8 * 60 * 60_000
export const linkLifetimeMs = 10 * 60_000

/** Whether the service's public origin is https: cookies are then `__Host-` and Secure. */
export const isSecureOrigin = (origin: string): boolean => origin.startsWith("https:")

/** A cookie's name as it is set and read under `origin`. */
export const cookieName = (name: string, origin: string): string => (isSecureOrigin(origin) ? `__Host-${name}` : name)

/**
 * A cookie of the sign-in session under `origin`: `__Host-` and Secure over https; path / either way,
 * since the console (/app) reads the same session as the sign-in and consent pages (/oauth).
 */
export const sessionPageCookie = (name: string, value: string, maxAgeSeconds: number, origin: string): PageCookie =>
  pageCookie(cookieName(name, origin), value, maxAgeSeconds, "lax", isSecureOrigin(origin), "/")

export interface BrowserSession {
  readonly id: string
  /** The signed-in user, if any. */
  readonly userId: UserId | undefined
}

const sessionValue = (session: BrowserSession): string => `${session.id}:${session.userId ?? ""}`

/** This browser's session, if its cookie is ours and current. */
export const sessionOf = (
  settings: OAuthLoginSettingsShape,
  request: HttpServerRequest.HttpServerRequest,
  origin: string,
  now: number
): BrowserSession | undefined => {
  const cookie = request.cookies[cookieName(sessionCookie, origin)]
  const value = cookie === undefined ? undefined : verifyValue(Redacted.value(settings.key), "session", cookie, now)
  const separator = value?.indexOf(":") ?? -1
  if (value === undefined || separator <= 0) return undefined
  const user = value.slice(separator + 1)
  return { id: value.slice(0, separator), userId: user === "" ? undefined : UserIdSchema.make(user) }
}

/** The signed-in user of this browser, if any. */
export const signedInUser = (
  settings: OAuthLoginSettingsShape,
  request: HttpServerRequest.HttpServerRequest,
  origin: string,
  now: number
): UserId | undefined => sessionOf(settings, request, origin, now)?.userId

const sessionCookieFor = (settings: OAuthLoginSettingsShape, session: BrowserSession, origin: string, now: number) =>
  sessionPageCookie(
    sessionCookie,
    signValue(Redacted.value(settings.key), "session", sessionValue(session), now + loginLifetimeMs),
    loginLifetimeMs / 1000,
    origin
  )

/**
 * Signs the browser in as `userId` in a new session (a new id: whatever session a planted cookie
 * or an earlier visit had, its CSRF tokens stop working).
 */
export const signInCookie = (
  settings: OAuthLoginSettingsShape,
  userId: UserId,
  origin: string,
  now: number
): PageCookie => sessionCookieFor(settings, { id: randomBytes(16).toString("base64url"), userId }, origin, now)

/** The CSRF token of a session: an HMAC of its id, so only that session's pages carry it. */
const csrfTokenOf = (settings: OAuthLoginSettingsShape, sessionId: string): string =>
  createHmac("sha256", Redacted.value(settings.key)).update(`csrf.${sessionId}`).digest("base64url")

/**
 * The CSRF token for this browser's forms, and the cookie that starts its session when it has
 * none yet (a session without a user, until it signs in).
 */
export const csrfOf = (
  settings: OAuthLoginSettingsShape,
  request: HttpServerRequest.HttpServerRequest,
  origin: string,
  now: number
): { readonly token: string; readonly cookies: ReadonlyArray<PageCookie> } => {
  const current = sessionOf(settings, request, origin, now)
  if (current !== undefined) return { token: csrfTokenOf(settings, current.id), cookies: [] }
  const fresh: BrowserSession = { id: randomBytes(16).toString("base64url"), userId: undefined }
  return { token: csrfTokenOf(settings, fresh.id), cookies: [sessionCookieFor(settings, fresh, origin, now)] }
}

/** True when the form's token is the one of this browser's current session (compared in constant time). */
export const csrfMatches = (
  settings: OAuthLoginSettingsShape,
  request: HttpServerRequest.HttpServerRequest,
  origin: string,
  now: number,
  formToken: string | undefined
): boolean => {
  const session = sessionOf(settings, request, origin, now)
  if (session === undefined || formToken === undefined) return false
  const a = Buffer.from(csrfTokenOf(settings, session.id))
  const b = Buffer.from(formToken)
  return a.length === b.length && timingSafeEqual(a, b)
}

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

/** The console's own paths: `/app`, `/app/...`, `/app?...`. */
const consolePath = /^\/app(?:[/?]|$)/

/**
 * Only back to an authorization request of this server or to the console: a sign-in never
 * redirects elsewhere, and never with a character that could split the Location header or hide in
 * it (CR, LF, NUL, U+2028).
 */
export const safeReturnTo = (returnTo: string | undefined): string | undefined =>
  returnTo !== undefined &&
  (returnTo.startsWith("/oauth/authorize?") || (consolePath.test(returnTo) && !returnTo.includes("//"))) &&
  !returnTo.includes("\\") &&
  unsafeCharacterIn(returnTo) === undefined
    ? returnTo
    : undefined
