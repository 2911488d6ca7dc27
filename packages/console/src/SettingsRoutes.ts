import { EmailConfirmation } from "@margin/core/access/EmailConfirmation"
import { Role } from "@margin/core/access/Role"
import { WorkspaceMembers } from "@margin/core/access/WorkspaceMembers"
import { GrantId, UserId } from "@margin/core/kernel/Ids"
import { ConnectedApps } from "@margin/core/oauth/ConnectedApps"
import { type PolicyField, policyFields } from "@margin/core/pricing/PolicyCheck"
import { PricingPolicySettings } from "@margin/core/workspaces/PricingPolicySettings"
import { Effect, Option, Schema } from "effect"
import { HttpRouter, type HttpServerRequest, type HttpServerResponse } from "effect/http"
import { connectedAppsPage } from "./ConnectedAppsPage.ts"
import {
  type Answer,
  answer,
  consoleGate,
  formExpired,
  formOf,
  type InWorkspace,
  idPattern,
  managerOnly,
  memberOf,
  notFound,
  redirect,
  withCookies
} from "./ConsoleGate.ts"
import { messagePage, type PageContext } from "./ConsolePage.ts"
import { confirmEmailPage, emailPage } from "./EmailPage.ts"
import { emptyInviteForm, type InviteFormState, membersPage } from "./MembersPage.ts"
import { formOfPolicy, type PolicyForm, policyInputNames, policyPage } from "./PolicyPage.ts"

export const settingsPaths = {
  connectedApps: "/app/w/:workspace_id/settings/connected-apps",
  revokeApp: "/app/w/:workspace_id/settings/connected-apps/:grant_id/revoke",
  members: "/app/w/:workspace_id/settings/members",
  invite: "/app/w/:workspace_id/settings/members/invite",
  memberRole: "/app/w/:workspace_id/settings/members/:user_id/role",
  removeMember: "/app/w/:workspace_id/settings/members/:user_id/remove",
  policy: "/app/w/:workspace_id/settings/policy",
  email: "/app/w/:workspace_id/settings/email",
  sendConfirmation: "/app/w/:workspace_id/settings/email/send",
  confirmEmail: "/app/confirm-email"
} as const

/** The settings' routes, for the console's route table. */
export const settingsRoutes: ReadonlyArray<{ readonly method: "GET" | "POST"; readonly path: string }> = [
  { method: "GET", path: settingsPaths.connectedApps },
  { method: "POST", path: settingsPaths.revokeApp },
  { method: "GET", path: settingsPaths.members },
  { method: "POST", path: settingsPaths.invite },
  { method: "POST", path: settingsPaths.memberRole },
  { method: "POST", path: settingsPaths.removeMember },
  { method: "GET", path: settingsPaths.policy },
  { method: "POST", path: settingsPaths.policy },
  { method: "GET", path: settingsPaths.email },
  { method: "POST", path: settingsPaths.sendConfirmation },
  { method: "GET", path: settingsPaths.confirmEmail },
  { method: "POST", path: settingsPaths.confirmEmail }
]

type Handler = (
  request: HttpServerRequest.HttpServerRequest
) => Effect.Effect<HttpServerResponse.HttpServerResponse, { readonly _tag: string }, HttpRouter.Provided>

const settingsBase = (place: InWorkspace, page: string) =>
  `/app/w/${encodeURIComponent(place.workspaceId)}/settings/${page}`

/** A number as the form gave it: text that is not one stays text, and the check refuses it. */
const numberOf = (text: string): unknown => (/^-?[0-9]+(\.[0-9]+)?$/.test(text.trim()) ? Number(text.trim()) : text)

/** The policy form's text as a candidate for core's check; "none" (or empty) removes the competitor limit. */
const candidateOf = (form: PolicyForm): Readonly<Record<PolicyField, unknown>> => ({
  targetMargin: numberOf(form.targetMargin),
  minMargin: numberOf(form.minMargin),
  maxChangePct: numberOf(form.maxChangePct),
  rounding: form.rounding,
  threshold: numberOf(form.threshold),
  objective: form.objective,
  defaultElasticity: numberOf(form.defaultElasticity),
  maxPremiumOverCompetitor: ["", "none"].includes(form.maxPremiumOverCompetitor.trim().toLowerCase())
    ? null
    : numberOf(form.maxPremiumOverCompetitor),
  minExpectedGain: numberOf(form.minExpectedGain)
})

const policyFormOf = (form: URLSearchParams): PolicyForm => {
  const text = (name: PolicyField) => (form.get(policyInputNames[name]) ?? "").slice(0, 100)
  return {
    targetMargin: text("targetMargin"),
    minMargin: text("minMargin"),
    maxChangePct: text("maxChangePct"),
    rounding: text("rounding"),
    threshold: text("threshold"),
    objective: text("objective"),
    defaultElasticity: text("defaultElasticity"),
    maxPremiumOverCompetitor: text("maxPremiumOverCompetitor"),
    minExpectedGain: text("minExpectedGain")
  }
}

/**
 * The workspace settings of admins and owners (connected apps, members, pricing policy) and each
 * person's own e-mail confirmation. Every action is one use case; the pages are refused (403) to
 * anyone below admin, and the use cases check the role again.
 */
export const settingsHandlers = Effect.gen(function* () {
  const { signedIn, inWorkspace, posted, sessions } = yield* consoleGate
  const apps = yield* ConnectedApps
  const members = yield* WorkspaceMembers
  const policies = yield* PricingPolicySettings
  const confirmation = yield* EmailConfirmation

  /** The place when its person manages the workspace (admin, owner); else the answer to give (403). */
  const managed = <P extends InWorkspace>(place: P | Answer): P | Answer => {
    if (place._tag === "Answer") return place
    const refused = managerOnly(place)
    return refused === undefined ? place : answer(refused)
  }
  const managing = (request: HttpServerRequest.HttpServerRequest, current: PageContext["current"]) =>
    Effect.map(inWorkspace(request, current), managed)
  const managingPost = (request: HttpServerRequest.HttpServerRequest, current: PageContext["current"]) =>
    Effect.map(posted(request, current), managed)

  const appsPage = (place: InWorkspace, notice: string | null) =>
    Effect.map(apps.list(place.workspaceId, memberOf(place)), (list) =>
      withCookies(
        connectedAppsPage({ context: place.context, workspaceId: place.workspaceId, apps: list, notice }),
        place.cookies
      )
    )

  const showApps: Handler = (request) =>
    Effect.gen(function* () {
      const place = yield* managing(request, "connected-apps")
      if (place._tag === "Answer") return place.response
      return yield* appsPage(place, null)
    })

  const revokeApp: Handler = (request) =>
    Effect.gen(function* () {
      const place = yield* managingPost(request, "connected-apps")
      if (place._tag === "Answer") return place.response
      const id = (yield* HttpRouter.params).grant_id ?? ""
      if (!idPattern.test(id)) return notFound(place.context)
      const revoked = yield* Effect.option(apps.revoke(place.workspaceId, memberOf(place), GrantId.make(id)))
      if (Option.isNone(revoked)) return notFound(place.context)
      return yield* appsPage(place, `“${revoked.value.clientName}” disconnected: its tokens no longer work.`)
    })

  const listPage = (
    place: InWorkspace,
    options: {
      readonly form?: InviteFormState
      readonly notice?: string
      readonly error?: string
      readonly status?: number
    }
  ) =>
    Effect.map(members.list(place.workspaceId, memberOf(place)), (list) =>
      membersPage({
        context: place.context,
        workspaceId: place.workspaceId,
        role: place.role,
        userId: place.userId,
        members: list,
        form: options.form ?? emptyInviteForm,
        notice: options.notice ?? null,
        error: options.error ?? null,
        ...(options.status === undefined ? {} : { status: options.status })
      })
    )

  const showMembers: Handler = (request) =>
    Effect.gen(function* () {
      const place = yield* managing(request, "members")
      if (place._tag === "Answer") return place.response
      return withCookies(yield* listPage(place, {}), place.cookies)
    })

  const roleOf = (text: string | null) => Schema.decodeUnknownOption(Role)(text ?? "")

  const invite: Handler = (request) =>
    Effect.gen(function* () {
      const place = yield* managingPost(request, "members")
      if (place._tag === "Answer") return place.response
      const form: InviteFormState = {
        email: (place.form.get("email") ?? "").slice(0, 300),
        role: place.form.get("role") ?? "",
        error: null
      }
      const role = roleOf(form.role)
      if (Option.isNone(role))
        return yield* listPage(place, { form: { ...form, error: "Choose a role." }, status: 400 })
      const refused = (status: number, error: string) => listPage(place, { form: { ...form, error }, status })
      return yield* members
        .invite(place.workspaceId, memberOf(place), { email: form.email, role: role.value, origin: place.origin })
        .pipe(
          Effect.flatMap((invited) =>
            listPage(place, {
              notice:
                invited.mailError === null
                  ? `${invited.member.email} invited as ${invited.member.role}: a sign-in link is on its way.`
                  : `${invited.member.email} invited as ${invited.member.role}, but the e-mail was not sent (${invited.mailError}).`
            })
          ),
          Effect.catchTags({
            InvalidInput: (error) => refused(400, `E-mail address: ${error.message}.`),
            MemberChangeRefused: (error) => refused(409, error.message),
            UserDeleted: () => refused(409, "That person's account was deleted.")
          })
        )
    })

  const targetOf = Effect.map(HttpRouter.params, (params) => params.user_id ?? "")

  const changeRole: Handler = (request) =>
    Effect.gen(function* () {
      const place = yield* managingPost(request, "members")
      if (place._tag === "Answer") return place.response
      const target = yield* targetOf
      const role = roleOf(place.form.get("role"))
      if (!idPattern.test(target)) return notFound(place.context)
      if (Option.isNone(role)) return yield* listPage(place, { error: "Choose a role.", status: 400 })
      return yield* members.changeRole(place.workspaceId, memberOf(place), UserId.make(target), role.value).pipe(
        Effect.flatMap((changed) => listPage(place, { notice: `${changed.email} is now ${changed.role}.` })),
        Effect.catchTags({
          MemberChangeRefused: (error) => listPage(place, { error: error.message, status: 409 }),
          ResourceNotFound: () => Effect.succeed(notFound(place.context))
        })
      )
    })

  const removeMember: Handler = (request) =>
    Effect.gen(function* () {
      const place = yield* managingPost(request, "members")
      if (place._tag === "Answer") return place.response
      const target = yield* targetOf
      if (!idPattern.test(target)) return notFound(place.context)
      return yield* members.remove(place.workspaceId, memberOf(place), UserId.make(target)).pipe(
        Effect.flatMap((removed) =>
          target === place.userId
            ? Effect.succeed(redirect("/app"))
            : listPage(place, { notice: `${removed.email} removed from the workspace.` })
        ),
        Effect.catchTags({
          MemberChangeRefused: (error) => listPage(place, { error: error.message, status: 409 }),
          ResourceNotFound: () => Effect.succeed(notFound(place.context))
        })
      )
    })

  const showPolicy: Handler = (request) =>
    Effect.gen(function* () {
      const place = yield* managing(request, "policy")
      if (place._tag === "Answer") return place.response
      const policy = yield* policies.read(place.workspaceId)
      const saved = new URL(request.url, "http://localhost").searchParams.get("saved") === "1"
      return withCookies(
        policyPage({
          context: place.context,
          workspaceId: place.workspaceId,
          form: formOfPolicy(policy),
          errors: [],
          notice: saved ? "Policy saved: the next runs use it." : null
        }),
        place.cookies
      )
    })

  const setPolicy: Handler = (request) =>
    Effect.gen(function* () {
      const place = yield* managingPost(request, "policy")
      if (place._tag === "Answer") return place.response
      const form = policyFormOf(place.form)
      return yield* policies
        .set(place.workspaceId, { _tag: "Member", member: memberOf(place) }, candidateOf(form))
        .pipe(
          Effect.as(redirect(`${settingsBase(place, "policy")}?saved=1`)),
          Effect.catchTag("InvalidPolicy", (invalid) =>
            Effect.succeed(
              policyPage({
                context: place.context,
                workspaceId: place.workspaceId,
                form,
                errors: invalid.fields.flatMap((error) =>
                  policyFields.flatMap((field) => (field === error.field ? [{ field, message: error.message }] : []))
                ),
                notice: null
              })
            )
          )
        )
    })

  const ownEmail = (place: InWorkspace, notice: string | null) =>
    Effect.map(confirmation.state(place.userId), (state) =>
      withCookies(
        emailPage({
          context: place.context,
          workspaceId: place.workspaceId,
          email: state.email,
          confirmed: state.confirmed,
          notice
        }),
        place.cookies
      )
    )

  const showEmail: Handler = (request) =>
    Effect.gen(function* () {
      const place = yield* inWorkspace(request, "email")
      if (place._tag === "Answer") return place.response
      return yield* ownEmail(place, null)
    })

  const sendConfirmation: Handler = (request) =>
    Effect.gen(function* () {
      const place = yield* posted(request, "email")
      if (place._tag === "Answer") return place.response
      const sent = yield* confirmation.send(place.userId, place.origin)
      return yield* ownEmail(
        place,
        sent._tag === "Sent"
          ? `A confirmation link is on its way to ${sent.email}: open it while signed in here.`
          : sent._tag === "AlreadyConfirmed"
            ? "Your address is confirmed already."
            : `The e-mail was not sent (${sent.reason}): try again later.`
      )
    })

  const signedContext = (csrf: string): PageContext => ({ workspace: null, role: null, email: null, csrf })

  const openConfirmation: Handler = (request) =>
    Effect.gen(function* () {
      const person = yield* signedIn(request)
      if (person._tag === "Answer") return person.response
      const token = (new URL(request.url, "http://localhost").searchParams.get("token") ?? "").slice(0, 2000)
      const state = yield* confirmation.state(person.userId)
      return withCookies(
        confirmEmailPage({ context: signedContext(person.csrf), token, email: state.email }),
        person.cookies
      )
    })

  const confirm: Handler = (request) =>
    Effect.gen(function* () {
      const person = yield* signedIn(request)
      if (person._tag === "Answer") return person.response
      const form = yield* formOf(request)
      const context = signedContext(person.csrf)
      if (!(yield* sessions.csrfMatches(request, form.get("csrf") ?? undefined))) return formExpired(context)
      return yield* confirmation.confirm(person.userId, (form.get("token") ?? "").slice(0, 2000)).pipe(
        Effect.map((state) =>
          messagePage(200, "Address confirmed", `${state.email} is confirmed. Go back to your workspace.`, context)
        ),
        Effect.catchTag("InvalidInput", (error) =>
          Effect.succeed(messagePage(400, "Not confirmed", error.message, context))
        )
      )
    })

  const handlers: ReadonlyArray<readonly ["GET" | "POST", HttpRouter.PathInput, Handler]> = [
    ["GET", settingsPaths.connectedApps, showApps],
    ["POST", settingsPaths.revokeApp, revokeApp],
    ["GET", settingsPaths.members, showMembers],
    ["POST", settingsPaths.invite, invite],
    ["POST", settingsPaths.memberRole, changeRole],
    ["POST", settingsPaths.removeMember, removeMember],
    ["GET", settingsPaths.policy, showPolicy],
    ["POST", settingsPaths.policy, setPolicy],
    ["GET", settingsPaths.email, showEmail],
    ["POST", settingsPaths.sendConfirmation, sendConfirmation],
    ["GET", settingsPaths.confirmEmail, openConfirmation],
    ["POST", settingsPaths.confirmEmail, confirm]
  ]
  return handlers
})
