import type { Actor } from "@margin/core/access/Actor"
import { EmailConfirmation } from "@margin/core/access/EmailConfirmation"
import { RateBudget } from "@margin/core/access/RateBudget"
import { mayManage, type Role } from "@margin/core/access/Role"
import { WorkspaceAccess } from "@margin/core/access/WorkspaceAccess"
import { type UserId, WorkspaceId } from "@margin/core/kernel/Ids"
import { WorkspaceStatus } from "@margin/core/workspaces/WorkspaceStatus"
import { BrowserSessions, budgetKey, type SessionCookie } from "@margin/edge/auth"
import { Clock, Effect, Option } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { type Banner, messagePage, type PageContext } from "./ConsolePage.ts"
import { when } from "./RecommendationFormat.ts"

/** Ids as this service makes them; anything else (NUL, spaces, a path) names nothing: 404. */
export const idPattern = /^[a-z]{2,4}_[0-9A-Za-z_-]{1,64}$/

/** A page answered before the handler's own work: not signed in, refused, not found, rate limited. */
export interface Answer {
  readonly _tag: "Answer"
  readonly response: HttpServerResponse.HttpServerResponse
}
export const answer = (response: HttpServerResponse.HttpServerResponse): Answer => ({ _tag: "Answer", response })

/** A signed-in person in one of their workspaces. */
export interface InWorkspace {
  readonly _tag: "InWorkspace"
  readonly userId: UserId
  readonly workspaceId: WorkspaceId
  readonly role: Role
  readonly context: PageContext
  readonly cookies: ReadonlyArray<SessionCookie>
  /** The service's origin as configured (MCP_PUBLIC_URL, else a loopback Host): links in mails. */
  readonly origin: string
}

export const redirect = (location: string, cookies: ReadonlyArray<SessionCookie> = []) =>
  HttpServerResponse.redirect(location, { status: 303, headers: { "cache-control": "no-store" } }).pipe(
    HttpServerResponse.setCookiesUnsafe(cookies)
  )

export const withCookies = (response: HttpServerResponse.HttpServerResponse, cookies: ReadonlyArray<SessionCookie>) =>
  cookies.length === 0 ? response : HttpServerResponse.setCookiesUnsafe(response, cookies)

/** A form body, read once; an unreadable one is empty (its CSRF check then fails). */
export const formOf = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.map(
    Effect.orElseSucceed(request.text, () => ""),
    (text) => new URLSearchParams(text)
  )

const pathAndQuery = (request: HttpServerRequest.HttpServerRequest): string => {
  const url = new URL(request.url, "http://localhost")
  return `${url.pathname}${url.search}`
}

const tooMany = (retryAfterSeconds: number) =>
  HttpServerResponse.setHeader(
    messagePage(429, "Too many requests", `Your rate budget is spent: try again in ${retryAfterSeconds} s.`, null),
    "retry-after",
    String(retryAfterSeconds)
  )

export const notFound = (context: PageContext | null) =>
  messagePage(404, "Not found", "There is nothing here, or it belongs to a workspace you are not a member of.", context)

export const formExpired = (context: PageContext | null) =>
  messagePage(
    403,
    "This form has expired",
    "Reload the page and try again (the form's security token did not match your session).",
    context
  )

/** The settings pages are for admins and owners; the server refuses the others (403). */
export const managerOnly = (place: InWorkspace) =>
  mayManage(place.role)
    ? undefined
    : messagePage(
        403,
        "Admins only",
        `The workspace's settings are managed by admins and owners; your role is ${place.role}.`,
        place.context
      )

export const actorOf = (place: InWorkspace): Actor => ({ _tag: "SessionActor", userId: place.userId })

/** The acting member of the settings' use cases. */
export const memberOf = (place: InWorkspace) => ({ userId: place.userId, role: place.role })

/**
 * The banners of every workspace page: the contract's two status objects (a support session open
 * on this workspace, the person's own account deletion pending) and an address not yet confirmed.
 */
const bannersOf = Effect.fn("bannersOf")(function* (
  status: WorkspaceStatus["Service"],
  confirmation: EmailConfirmation["Service"],
  workspaceId: WorkspaceId,
  userId: UserId
) {
  const [report, email] = yield* Effect.all(
    [Effect.option(status.read(workspaceId, userId)), Effect.option(confirmation.state(userId))],
    { concurrency: "unbounded" }
  )
  const banners: Array<Banner> = []
  const support = Option.isSome(report) ? report.value.supportAccess : null
  if (support !== null) {
    banners.push({
      kind: "support",
      text: `Support access is open: ${support.adminEmail} may act in this workspace until ${when(support.expiresAt)}.`
    })
  }
  const deletion = Option.isSome(report) ? report.value.accountDeletion : null
  if (deletion !== null) {
    banners.push({
      kind: "deletion",
      text: `Your account is scheduled for deletion on ${when(deletion.effectiveAt)} (asked ${when(deletion.scheduledAt)}).`
    })
  }
  if (Option.isSome(email) && !email.value.confirmed) banners.push({ kind: "confirm-email", text: email.value.email })
  return { banners, email: Option.isSome(email) ? email.value.email : null }
})

/**
 * What every console route starts with: the signed-in person (charged one unit of their rate
 * budget), their membership of the route's workspace (404 when it is not theirs), and, for a
 * form post, its CSRF token checked (403 without).
 */
export const consoleGate = Effect.gen(function* () {
  const sessions = yield* BrowserSessions
  const access = yield* WorkspaceAccess
  const budget = yield* RateBudget
  const status = yield* WorkspaceStatus
  const confirmation = yield* EmailConfirmation

  /** The signed-in person, charged one unit; else the sign-in page (coming back here), or a refusal. */
  const signedIn = (request: HttpServerRequest.HttpServerRequest) =>
    Effect.gen(function* () {
      const visit = yield* sessions.visit(request)
      if (visit === undefined) {
        return answer(
          messagePage(400, "Unknown host", "This server does not name itself by the host you asked for.", null)
        )
      }
      if (visit.userId === undefined) {
        const back = request.method === "GET" ? pathAndQuery(request) : "/app"
        return answer(redirect(sessions.signInPath(back), visit.cookies))
      }
      const decision = yield* budget.consume(
        budgetKey({ tokenId: null, userId: visit.userId }),
        yield* Clock.currentTimeMillis
      )
      if (decision._tag === "Limited") return answer(tooMany(decision.retryAfterSeconds))
      return {
        _tag: "SignedIn" as const,
        userId: visit.userId,
        csrf: visit.csrf,
        cookies: visit.cookies,
        origin: visit.origin
      }
    })

  /** The person in the route's workspace; 404 when it is not theirs. */
  const inWorkspace = (request: HttpServerRequest.HttpServerRequest, current: PageContext["current"]) =>
    Effect.gen(function* () {
      const person = yield* signedIn(request)
      if (person._tag === "Answer") return person
      const params = yield* HttpRouter.params
      const raw = params.workspace_id ?? ""
      const context: PageContext = { workspace: null, role: null, email: null, csrf: person.csrf }
      if (!idPattern.test(raw)) return answer(notFound(context))
      const membership = yield* Effect.option(access.membershipIn(WorkspaceId.make(raw), person.userId))
      if (Option.isNone(membership)) return answer(notFound(context))
      const workspaceId = membership.value.workspace.id
      const shown = yield* bannersOf(status, confirmation, workspaceId, person.userId)
      const found: InWorkspace = {
        _tag: "InWorkspace",
        userId: person.userId,
        workspaceId,
        role: membership.value.role,
        cookies: person.cookies,
        origin: person.origin,
        context: {
          workspace: { id: workspaceId, name: membership.value.workspace.name },
          role: membership.value.role,
          email: shown.email,
          csrf: person.csrf,
          banners: shown.banners,
          ...(current === undefined ? {} : { current })
        }
      }
      return found
    })

  /** As `inWorkspace`, for a form post: its body read and its CSRF token checked (403 without). */
  const posted = (request: HttpServerRequest.HttpServerRequest, current: PageContext["current"]) =>
    Effect.gen(function* () {
      const place = yield* inWorkspace(request, current)
      if (place._tag === "Answer") return place
      const form = yield* formOf(request)
      if (!(yield* sessions.csrfMatches(request, form.get("csrf") ?? undefined))) {
        return answer(formExpired(place.context))
      }
      return { ...place, form }
    })

  return { sessions, access, budget, signedIn, inWorkspace, posted }
})
