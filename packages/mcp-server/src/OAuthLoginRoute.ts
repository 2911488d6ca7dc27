import type { RepositoryError } from "@margin/core/Errors"
import { LoginLinkRepository } from "@margin/core/ports/LoginLinkRepository"
import { Mailer } from "@margin/core/ports/Mailer"
import { UserRepository } from "@margin/core/ports/UserRepository"
import { Clock, Effect, Option, Result } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { McpSettings } from "./McpSettings.ts"
import { csrfMatches, linkOf, linkToken, loginCookieFor, safeReturnTo } from "./OAuthBrowserSession.ts"
import { OAuthLoginSettings } from "./OAuthLoginSettings.ts"
import { errorPage, htmlPage, linkSentPage, unavailablePage } from "./OAuthPages.ts"
import { oauthParams } from "./OAuthParams.ts"
import { originOf } from "./ProtectedResource.ts"

export const loginPaths = { request: "/oauth/login", link: "/oauth/login/link" } as const

const notOffered = htmlPage(
  404,
  "Sign-in by e-mail link is off",
  `<p role="alert">Set OAUTH_DEV_LOGIN=true to use it.</p>`
)

/** One answer for a link that was used, has expired or is not ours: the user can only ask again. */
const spentLink = errorPage("This sign-in link was already used or has expired: ask the agent for a new one.")

/**
 * Development sign-in by e-mail link (OAUTH_DEV_LOGIN): the sign-in page posts an address; a user
 * with that address (not deleted) gets a link, sent through the Mailer when the process has one
 * and printed in the log, so that `npm start` alone shows the whole flow. The page answers the
 * same whether or not the address is known. The link signs the browser in (a cookie for /oauth,
 * 8 hours) and goes back to the authorization request, once: its use is recorded, a second one
 * refused.
 */
export const layer = HttpRouter.addAll(
  Effect.gen(function* () {
    const settings = yield* McpSettings
    const login = yield* OAuthLoginSettings
    const users = yield* UserRepository
    const links = yield* LoginLinkRepository
    // Optional: a process without mail still prints the link.
    const mailer = yield* Effect.serviceOption(Mailer)

    const requestLink = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        if (!login.emailLink) return notOffered
        const params = oauthParams(new URLSearchParams(yield* Effect.orElseSucceed(request.text, () => "")))
        if (Result.isFailure(params)) return errorPage(params.failure.description)
        if (!csrfMatches(request, params.success("csrf"))) {
          return htmlPage(403, "This form has expired", `<p role="alert">Go back to the agent and start again.</p>`)
        }
        const returnTo = safeReturnTo(params.success("return_to"))
        const email = params.success("email")?.trim()
        if (returnTo === undefined || email === undefined) return errorPage("The sign-in form is incomplete.")
        const user = yield* users.findByEmail(email)
        if (Option.isNone(user) || user.value.deletedAt !== null) return linkSentPage()
        const now = yield* Clock.currentTimeMillis
        const link = new URL(`${originOf(settings, request)}${loginPaths.link}`)
        link.searchParams.set("token", linkToken(login, user.value.id, now))
        link.searchParams.set("return_to", returnTo)
        yield* Effect.logInfo(`OAuth sign-in link for ${user.value.email}: ${link.href}`)
        if (Option.isSome(mailer)) {
          yield* mailer.value
            .send({
              key: `oauth-login-${user.value.id}-${now}`,
              to: user.value.email,
              subject: "Sign in to Margin",
              text: `Open this link within 10 minutes to sign in and decide what the AI agent may do (it works once):\n\n${link.href}\n\nIf you did not ask for it, ignore this message.\n`,
              date: now
            })
            .pipe(Effect.catch((error) => Effect.logWarning("OAuth sign-in link not mailed", error.reason)))
        }
        return linkSentPage()
      })

    const followLink = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        if (!login.emailLink) return notOffered
        const search = new URL(request.url, "http://localhost").searchParams
        const now = yield* Clock.currentTimeMillis
        const token = search.get("token")
        const link = token === null ? undefined : linkOf(login, token, now)
        const returnTo = safeReturnTo(search.get("return_to") ?? undefined)
        if (link === undefined || returnTo === undefined) return spentLink
        if (!(yield* links.use(link.nonceHash, link.expiresAt, now))) return spentLink
        return HttpServerResponse.redirect(returnTo, { status: 303, headers: { "cache-control": "no-store" } }).pipe(
          HttpServerResponse.setCookiesUnsafe([loginCookieFor(login, link.userId, now)])
        )
      })

    return [
      HttpRouter.route("POST", loginPaths.request, (request: HttpServerRequest.HttpServerRequest) =>
        Effect.catch(requestLink(request), (error: RepositoryError) =>
          Effect.as(Effect.logWarning("OAuth sign-in: the database failed", error.message), unavailablePage())
        )
      ),
      HttpRouter.route("GET", loginPaths.link, (request: HttpServerRequest.HttpServerRequest) =>
        Effect.catch(followLink(request), (error: RepositoryError) =>
          Effect.as(Effect.logWarning("OAuth sign-in link: the database failed", error.message), unavailablePage())
        )
      )
    ]
  })
)
