import { createHash, randomBytes } from "node:crypto"
import { RateBudget } from "@margin/core/access/RateBudget"
import type { RepositoryError } from "@margin/core/kernel/Errors"
import type { UserId } from "@margin/core/kernel/Ids"
import { Mailer } from "@margin/core/kernel/Mailer"
import { makeRateWindows } from "@margin/core/memory/RateWindows"
import { SignIn } from "@margin/core/oauth/SignIn"
import { originOf, PublicOrigin, untrustedHost } from "@margin/edge/serving"
import { Clock, Effect, Option, Result } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import {
  csrfMatches,
  csrfOf,
  linkOf,
  linkToken,
  safeReturnTo,
  sessionOf,
  signInCookie
} from "../browser/OAuthBrowserSession.ts"
import { OAuthLoginSettings } from "../browser/OAuthLoginSettings.ts"
import {
  continuePage,
  errorPage,
  htmlPage,
  linkSentPage,
  loginPage,
  tooManySignInsPage,
  unavailablePage
} from "../browser/OAuthPages.ts"
import { oauthParams } from "./OAuthParams.ts"

export const loginPaths = { request: "/oauth/login", link: "/oauth/login/link" } as const

const notOffered = htmlPage(
  404,
  "Sign-in by e-mail link is off",
  `<p role="alert">Set OAUTH_DEV_LOGIN=true to use it.</p>`
)

const formExpired = htmlPage(403, "This form has expired", `<p role="alert">Go back to the agent and start again.</p>`)

/** A form or link refused before it is read (a repeated parameter, a character not allowed): a page, logged. */
const refused = (description: string) =>
  Effect.as(Effect.logInfo("OAuth sign-in refused", description), errorPage(description))

/** One answer for a link that was used, has expired or is not ours: the user can only ask again. */
const spentLink = errorPage("This sign-in link was already used or has expired: ask the agent for a new one.")

/**
 * The key of a sign-in mail: unique per message (a random part), so that two mails to one user in
 * the same millisecond are two `.eml` files, not one overwriting the other.
 */
export const signInMailKey = (userId: UserId, now: number): string =>
  `oauth-login-${userId}-${now}-${randomBytes(6).toString("hex")}`

/**
 * Sign-in requests per e-mail address a minute in this process, beside the shared budgets: a
 * mailbox gets at most this many links a minute from one process however many addresses ask.
 */
export const signInsPerEmailPerMinute = 5

/** The budget keys of a sign-in request: its remote address, and the address asked for (hashed, as typed: lower-cased). */
const budgetKeys = (request: HttpServerRequest.HttpServerRequest, email: string) => [
  `oauth-login:${Option.getOrElse(request.remoteAddress, () => "unknown")}`,
  `oauth-login-email:${createHash("sha256").update(email.toLowerCase()).digest("hex")}`
]

/**
 * Development sign-in by e-mail link (OAUTH_DEV_LOGIN): the sign-in page posts an address; a user
 * with that address (not deleted) gets a link, sent through the Mailer when the process has one
 * and printed in the log, so that `npm start` alone shows the whole flow. Each request counts on
 * the rate budget per remote address and per e-mail address (429 beyond either), and is answered
 * the same whether or not the address is known: the mail is sent beside the answer, not before it.
 * The link is built on the configured public origin only (`originOf`). Opening it shows a
 * "Continue as ..." page; its form post signs the browser in (a new session, 8 hours) and goes back
 * to the authorization request, once: its use is recorded, a second one refused.
 */
export const layer = HttpRouter.addAll(
  Effect.gen(function* () {
    const settings = yield* PublicOrigin
    const login = yield* OAuthLoginSettings
    const signIn = yield* SignIn
    const budget = yield* RateBudget
    // Optional: a process without mail still prints the link.
    const mailer = yield* Effect.serviceOption(Mailer)
    // Mails are sent in the routes' scope, beside the answer.
    const scope = yield* Effect.scope
    const perEmail = makeRateWindows(signInsPerEmailPerMinute)

    const deliver = (email: string, href: string, userId: UserId, now: number, returnTo: string) =>
      Effect.gen(function* () {
        const purpose = returnTo.startsWith("/app") ? " to the Margin console" : " and decide what the AI agent may do"
        yield* Effect.logInfo(`OAuth sign-in link for ${email}: ${href}`)
        if (Option.isNone(mailer)) return
        yield* mailer.value
          .send({
            key: signInMailKey(userId, now),
            to: email,
            subject: "Sign in to Margin",
            text: `Open this link within 10 minutes to sign in${purpose} (it works once):\n\n${href}\n\nIf you did not ask for it, ignore this message.\n`,
            date: now
          })
          .pipe(Effect.catch((error) => Effect.logWarning("OAuth sign-in link not mailed", error.reason)))
      })

    const requestLink = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        if (!login.emailLink) return notOffered
        const origin = originOf(settings, request)
        if (origin === undefined) return errorPage(untrustedHost)
        const params = oauthParams(new URLSearchParams(yield* Effect.orElseSucceed(request.text, () => "")))
        if (Result.isFailure(params)) return yield* refused(params.failure.description)
        const now = yield* Clock.currentTimeMillis
        if (!csrfMatches(login, request, origin, now, params.success("csrf"))) return formExpired
        const returnTo = safeReturnTo(params.success("return_to"))
        const email = params.success("email")?.trim()
        if (returnTo === undefined || email === undefined) return errorPage("The sign-in form is incomplete.")
        // Both budgets count every request, known address or not: the answer tells nothing.
        for (const key of budgetKeys(request, email)) {
          const decision = yield* budget.consume(key, now)
          if (decision._tag === "Limited") return tooManySignInsPage(decision.retryAfterSeconds)
        }
        const local = perEmail.consume(email.toLowerCase(), now)
        if (local._tag === "Limited") return tooManySignInsPage(local.retryAfterSeconds)
        const user = yield* signIn.accountByEmail(email)
        if (Option.isSome(user)) {
          const link = new URL(`${origin}${loginPaths.link}`)
          link.searchParams.set("token", linkToken(login, user.value.id, now))
          link.searchParams.set("return_to", returnTo)
          yield* Effect.forkIn(deliver(user.value.email, link.href, user.value.id, now, returnTo), scope)
        }
        return linkSentPage()
      })

    /** The sign-in page on its own (the console sends an unsigned-in browser here), back to `return_to` once signed in. */
    const showLogin = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        const origin = originOf(settings, request)
        if (origin === undefined) return errorPage(untrustedHost)
        const params = oauthParams(new URL(request.url, "http://localhost").searchParams)
        if (Result.isFailure(params)) return yield* refused(params.failure.description)
        const returnTo = safeReturnTo(params.success("return_to"))
        if (returnTo === undefined) return errorPage("The sign-in request is incomplete.")
        if (!login.emailLink && login.oidc === undefined) return notOffered
        const csrf = csrfOf(login, request, origin, yield* Clock.currentTimeMillis)
        return loginPage({
          csrf: csrf.token,
          returnTo,
          cookies: csrf.cookies,
          emailLink: login.emailLink,
          oidc: login.oidc !== undefined
        })
      })

    /** The link opened: a page asking to confirm, spending nothing. */
    const showLink = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        if (!login.emailLink) return notOffered
        const origin = originOf(settings, request)
        if (origin === undefined) return errorPage(untrustedHost)
        const params = oauthParams(new URL(request.url, "http://localhost").searchParams)
        if (Result.isFailure(params)) return yield* refused(params.failure.description)
        const now = yield* Clock.currentTimeMillis
        const token = params.success("token")
        const link = token === undefined ? undefined : linkOf(login, token, now)
        const returnTo = safeReturnTo(params.success("return_to"))
        if (token === undefined || link === undefined || returnTo === undefined) return spentLink
        const user = yield* signIn.account(link.userId)
        if (Option.isNone(user)) return spentLink
        const current = sessionOf(login, request, origin, now)?.userId
        const signedInAs =
          current === undefined || current === link.userId
            ? undefined
            : Option.match(yield* signIn.user(current), { onNone: () => current, onSome: (found) => found.email })
        const csrf = csrfOf(login, request, origin, now)
        return continuePage({
          email: user.value.email,
          signedInAs,
          token,
          returnTo,
          csrf: csrf.token,
          cookies: csrf.cookies
        })
      })

    /** "Continue as ...": the link spent, the browser signed in (a new session), back to the authorization request. */
    const followLink = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        if (!login.emailLink) return notOffered
        const origin = originOf(settings, request)
        if (origin === undefined) return errorPage(untrustedHost)
        const params = oauthParams(new URLSearchParams(yield* Effect.orElseSucceed(request.text, () => "")))
        if (Result.isFailure(params)) return yield* refused(params.failure.description)
        const now = yield* Clock.currentTimeMillis
        if (!csrfMatches(login, request, origin, now, params.success("csrf"))) return formExpired
        const token = params.success("token")
        const link = token === undefined ? undefined : linkOf(login, token, now)
        const returnTo = safeReturnTo(params.success("return_to"))
        if (link === undefined || returnTo === undefined) return spentLink
        if (!(yield* signIn.spendLink(link.nonceHash, link.expiresAt, now))) return spentLink
        return HttpServerResponse.redirect(returnTo, { status: 303, headers: { "cache-control": "no-store" } }).pipe(
          HttpServerResponse.setCookiesUnsafe([signInCookie(login, link.userId, origin, now)])
        )
      })

    const orUnavailable =
      (what: string) => (effect: Effect.Effect<HttpServerResponse.HttpServerResponse, RepositoryError>) =>
        Effect.catch(effect, (error: RepositoryError) =>
          Effect.as(Effect.logWarning(`${what}: the database failed`, error.message), unavailablePage())
        )

    return [
      HttpRouter.route("GET", loginPaths.request, showLogin),
      HttpRouter.route("POST", loginPaths.request, (request: HttpServerRequest.HttpServerRequest) =>
        orUnavailable("OAuth sign-in")(requestLink(request))
      ),
      HttpRouter.route("GET", loginPaths.link, (request: HttpServerRequest.HttpServerRequest) =>
        orUnavailable("OAuth sign-in link")(showLink(request))
      ),
      HttpRouter.route("POST", loginPaths.link, (request: HttpServerRequest.HttpServerRequest) =>
        orUnavailable("OAuth sign-in link")(followLink(request))
      )
    ]
  })
)
