/**
 * The console's settings use cases over a set of adapters (memory, PostgreSQL): members (invite,
 * role changes, the last owner kept), connected apps (list, last use, revoke), the pricing policy
 * (one check), e-mail confirmation, and the API keys and workspace access they stand on.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Option, Result } from "effect"
import { TestClock } from "effect/testing"
import { ApiKeys } from "../access/ApiKeys.ts"
import { EmailConfirmation } from "../access/EmailConfirmation.ts"
import type { ActingMember } from "../access/Manager.ts"
import { MembershipRepository } from "../access/MembershipRepository.ts"
import type { Role } from "../access/Role.ts"
import { TokenSecrets } from "../access/TokenSecrets.ts"
import { UserRepository } from "../access/UserRepository.ts"
import { WorkspaceAccess } from "../access/WorkspaceAccess.ts"
import { WorkspaceMembers } from "../access/WorkspaceMembers.ts"
import { AuditRepository } from "../audit/AuditRepository.ts"
import type { IdGenerator } from "../kernel/IdGenerator.ts"
import type { WorkspaceId } from "../kernel/Ids.ts"
import * as MemoryMailer from "../memory/MemoryMailer.ts"
import { ConnectedApps } from "../oauth/ConnectedApps.ts"
import type { OAuthClientRepository } from "../oauth/OAuthClientRepository.ts"
import { OAuthGrantRepository } from "../oauth/OAuthGrantRepository.ts"
import { defaultPricingPolicy } from "../pricing/PricingPolicy.ts"
import { PricingPolicySettings } from "../workspaces/PricingPolicySettings.ts"
import type { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import { seedGrant, seedOAuthClient } from "./OAuthFixtures.ts"
import { seedUser, seedWorkspace } from "./Seed.ts"
import * as TestEmailLinks from "./TestEmailLinks.ts"

/** Random secrets with a hex hash of the stored shape (64 digits): distinct across test files sharing a database. */
const randomSecrets = Layer.succeed(
  TokenSecrets,
  TokenSecrets.of({
    next: Effect.sync(() => {
      const hash = Array.from({ length: 64 }, () => Math.floor(Math.random() * 16).toString(16)).join("")
      return { secret: `pck_suite_${hash.slice(0, 24)}`, hash }
    })
  })
)

/** The settings' use cases over `ports` (an adapter set: memory or PostgreSQL). */
export const settingsUseCases = <E, R>(ports: Layer.Layer<R, E>) =>
  Layer.mergeAll(
    WorkspaceMembers.layer,
    EmailConfirmation.layer,
    ConnectedApps.layer,
    PricingPolicySettings.layer,
    ApiKeys.layer.pipe(Layer.provide(randomSecrets)),
    WorkspaceAccess.layer
  ).pipe(Layer.provideMerge(Layer.mergeAll(TestEmailLinks.layer, MemoryMailer.layer)), Layer.provideMerge(ports))

export type SettingsSuiteServices =
  | WorkspaceMembers
  | EmailConfirmation
  | ConnectedApps
  | PricingPolicySettings
  | ApiKeys
  | WorkspaceAccess
  | MemoryMailer.MemoryOutbox
  | MembershipRepository
  | UserRepository
  | OAuthGrantRepository
  | OAuthClientRepository
  | AuditRepository
  | WorkspaceRepository
  | IdGenerator

const origin = "https://margin.example"

/** A workspace with a member of each role given, by role. */
const aTeam = Effect.fnUntraced(function* (wanted: ReadonlyArray<Role>) {
  const workspace = yield* seedWorkspace()
  const memberships = yield* MembershipRepository
  const team: Array<ActingMember & { readonly role: Role }> = []
  for (const role of wanted) {
    const user = yield* seedUser()
    yield* memberships.upsert({ workspaceId: workspace.id, userId: user.id, role })
    team.push({ userId: user.id, role })
  }
  /** The member seeded with `role`. */
  const who = (role: Role): ActingMember => team.find((one) => one.role === role) ?? assert.fail(`no ${role}`)
  return { workspace, who }
})

const auditActions = (workspaceId: WorkspaceId) =>
  Effect.map(
    AuditRepository.use((audit) => audit.list(workspaceId, { limit: 100, cursor: null })),
    (page) => page.items.map((event) => `${event.action} ${event.beforeStatus ?? "-"}>${event.afterStatus ?? "-"}`)
  )

export const workspaceSettingsSuite = <E>(name: string, services: Layer.Layer<SettingsSuiteServices, E>) =>
  layer(services, { timeout: "60 seconds" })(`workspace settings (${name})`, (it) => {
    it.effect("an admin invites by e-mail: a new user, the membership, a sign-in link by mail, audited", () =>
      Effect.gen(function* () {
        const { workspace, who } = yield* aTeam(["owner", "admin"])
        const admin = who("admin")
        const members = yield* WorkspaceMembers
        const email = `new-${workspace.id}@example.com`
        const invited = yield* members.invite(workspace.id, admin, {
          email: ` ${email.toUpperCase()} `,
          role: "analyst",
          origin
        })
        assert.strictEqual(invited.member.email, email)
        assert.strictEqual(invited.member.role, "analyst")
        assert.isNull(invited.mailError)
        const mails = (yield* (yield* MemoryMailer.MemoryOutbox).sent).filter((mail) => mail.to === email)
        assert.strictEqual(mails.length, 1)
        assert.include(mails[0]?.text ?? "", `${origin}/oauth/login/link?token=link.${invited.member.userId}`)
        const user = Option.getOrThrow(yield* (yield* UserRepository).findByEmail(email))
        assert.isFalse(user.emailConfirmed)
        const access = yield* WorkspaceAccess
        assert.strictEqual((yield* access.membershipIn(workspace.id, user.id)).role, "analyst")
        assert.deepStrictEqual(
          (yield* access.workspacesOf(user.id)).map((one) => one.workspace.id),
          [workspace.id]
        )
        assert.include(yield* auditActions(workspace.id), "member.add ->analyst")
        // Again: a member already; an admin does not make an owner; a bad address is refused.
        const again = yield* Effect.flip(members.invite(workspace.id, admin, { email, role: "viewer", origin }))
        assert.strictEqual(again._tag === "MemberChangeRefused" ? again.reason : again._tag, "already_member")
        const owner = yield* Effect.flip(
          members.invite(workspace.id, admin, { email: "x@example.com", role: "owner", origin })
        )
        assert.strictEqual(owner._tag === "MemberChangeRefused" ? owner.reason : owner._tag, "owner_only")
        const bad = yield* Effect.flip(
          members.invite(workspace.id, admin, { email: "not an address", role: "viewer", origin })
        )
        assert.strictEqual(bad._tag, "InvalidInput")
      })
    )

    it.effect("roles change by the contract's rules; the last owner is neither demoted nor removed", () =>
      Effect.gen(function* () {
        const { workspace, who } = yield* aTeam(["owner", "admin", "viewer", "analyst"])
        const [owner, admin, viewer, analyst] = [who("owner"), who("admin"), who("viewer"), who("analyst")]
        const members = yield* WorkspaceMembers
        assert.strictEqual((yield* members.changeRole(workspace.id, admin, viewer.userId, "approver")).role, "approver")
        // A repeat changes nothing and leaves no second event.
        yield* members.changeRole(workspace.id, admin, viewer.userId, "approver")
        const reason = (error: { readonly _tag: string; readonly reason?: string }) => error.reason ?? error._tag
        assert.strictEqual(
          reason(yield* Effect.flip(members.changeRole(workspace.id, admin, owner.userId, "admin"))),
          "owner_only"
        )
        assert.strictEqual(
          reason(yield* Effect.flip(members.changeRole(workspace.id, admin, viewer.userId, "owner"))),
          "owner_only"
        )
        assert.strictEqual(reason(yield* Effect.flip(members.remove(workspace.id, admin, owner.userId))), "owner_only")
        assert.strictEqual(
          reason(yield* Effect.flip(members.changeRole(workspace.id, owner, owner.userId, "admin"))),
          "last_owner"
        )
        assert.strictEqual(reason(yield* Effect.flip(members.remove(workspace.id, owner, owner.userId))), "last_owner")
        assert.strictEqual(reason(yield* Effect.flip(members.list(workspace.id, analyst))), "ForbiddenRole")
        assert.strictEqual(
          reason(yield* Effect.flip(members.remove(workspace.id, analyst, viewer.userId))),
          "ForbiddenRole"
        )
        // With a second owner, the first may step down.
        yield* members.changeRole(workspace.id, owner, admin.userId, "owner")
        assert.strictEqual((yield* members.changeRole(workspace.id, owner, owner.userId, "admin")).role, "admin")
        assert.strictEqual((yield* members.remove(workspace.id, admin, analyst.userId)).role, "analyst")
        assert.strictEqual(
          reason(yield* Effect.flip(members.remove(workspace.id, admin, analyst.userId))),
          "ResourceNotFound"
        )
        const listed = yield* members.list(workspace.id, admin)
        assert.deepStrictEqual(listed.map((member) => member.role).sort(), ["admin", "approver", "owner"])
        const actions = yield* auditActions(workspace.id)
        assert.deepStrictEqual(actions.filter((action) => action.startsWith("member.")).sort(), [
          "member.remove analyst>-",
          "member.set_role admin>owner",
          "member.set_role owner>admin",
          "member.set_role viewer>approver"
        ])
      })
    )

    it.effect("connected apps: the workspace's live grants with the client's name and last use; revoke ends one", () =>
      Effect.gen(function* () {
        const { workspace, who } = yield* aTeam(["admin", "viewer"])
        const [admin, viewer] = [who("admin"), who("viewer")]
        const client = yield* seedOAuthClient({ name: "Claude Desktop" })
        const grant = yield* seedGrant({
          workspaceId: workspace.id,
          userId: admin.userId,
          clientId: client.id,
          createdAt: 1000
        })
        const elsewhere = yield* seedGrant()
        const grants = yield* OAuthGrantRepository
        yield* grants.touch(grant.id, 5000)
        yield* grants.touch(grant.id, 4000)
        const apps = yield* ConnectedApps
        const listed = yield* apps.list(workspace.id, admin)
        assert.deepStrictEqual(
          listed.map((app) => [app.grant.id, app.clientName, app.grant.lastUsedAt]),
          [[grant.id, "Claude Desktop", 5000]]
        )
        assert.deepStrictEqual(
          (yield* grants.list({ workspaceId: workspace.id })).map((one) => one.id),
          [grant.id]
        )
        assert.strictEqual((yield* Effect.flip(apps.list(workspace.id, viewer)))._tag, "ForbiddenRole")
        assert.strictEqual(
          (yield* Effect.flip(apps.revoke(workspace.id, admin, elsewhere.id)))._tag,
          "ResourceNotFound"
        )
        yield* TestClock.setTime(10_000)
        const revoked = yield* apps.revoke(workspace.id, admin, grant.id)
        assert.strictEqual(revoked.grant.revokedAt, 10_000)
        assert.strictEqual(Option.getOrThrow(yield* grants.get(grant.id)).revokedAt, 10_000)
        assert.deepStrictEqual(yield* apps.list(workspace.id, admin), [])
        assert.strictEqual((yield* Effect.flip(apps.revoke(workspace.id, admin, grant.id)))._tag, "ResourceNotFound")
        assert.include(yield* auditActions(workspace.id), "grant.revoke active>revoked")
      })
    )

    it.effect("the pricing policy: every refused field named at once; a valid one saved and audited", () =>
      Effect.gen(function* () {
        const { workspace, who } = yield* aTeam(["owner", "approver"])
        const [owner, approver] = [who("owner"), who("approver")]
        const settings = yield* PricingPolicySettings
        const editor = { _tag: "Member", member: owner } as const
        const refused = yield* Effect.flip(
          settings.set(workspace.id, editor, {
            ...defaultPricingPolicy,
            targetMargin: 1.2,
            rounding: "10",
            defaultElasticity: 0.5
          })
        )
        assert.deepStrictEqual(refused._tag === "InvalidPolicy" ? refused.fields.map((field) => field.field) : [], [
          "targetMargin",
          "rounding",
          "defaultElasticity"
        ])
        const crossed = yield* Effect.flip(
          settings.set(workspace.id, editor, { ...defaultPricingPolicy, minMargin: 0.5 })
        )
        assert.deepStrictEqual(crossed._tag === "InvalidPolicy" ? crossed.fields.map((field) => field.field) : [], [
          "minMargin"
        ])
        assert.deepStrictEqual(yield* settings.read(workspace.id), defaultPricingPolicy)
        const wanted = { ...defaultPricingPolicy, targetMargin: 0.4, maxPremiumOverCompetitor: null }
        assert.deepStrictEqual(yield* settings.set(workspace.id, editor, wanted), wanted)
        assert.deepStrictEqual(yield* settings.read(workspace.id), wanted)
        const byApprover = yield* Effect.flip(settings.set(workspace.id, { _tag: "Member", member: approver }, wanted))
        assert.strictEqual(byApprover._tag, "ForbiddenRole")
        yield* settings.set(workspace.id, { _tag: "Operator", actor: "system:marginctl" }, defaultPricingPolicy)
        const actions = (yield* auditActions(workspace.id)).filter((action) =>
          action.startsWith("workspace.set_policy")
        )
        assert.strictEqual(actions.length, 2)
      })
    )

    it.effect("e-mail confirmation: a link by mail confirms the address it was sent to, for its user only", () =>
      Effect.gen(function* () {
        const user = yield* seedUser({ emailConfirmed: false })
        const other = yield* seedUser({ emailConfirmed: false })
        const confirmation = yield* EmailConfirmation
        assert.deepStrictEqual(yield* confirmation.state(user.id), { email: user.email, confirmed: false })
        assert.deepStrictEqual(yield* confirmation.send(user.id, origin), { _tag: "Sent", email: user.email })
        const mail =
          (yield* (yield* MemoryMailer.MemoryOutbox).sent).filter((one) => one.to === user.email).at(-1) ??
          assert.fail("no mail")
        const token =
          new URL(Option.getOrThrow(Option.fromNullishOr(/https:\S+/.exec(mail.text)?.[0]))).searchParams.get(
            "token"
          ) ?? ""
        assert.strictEqual((yield* Effect.flip(confirmation.confirm(other.id, token)))._tag, "InvalidInput")
        assert.strictEqual((yield* Effect.flip(confirmation.confirm(user.id, "forged")))._tag, "InvalidInput")
        assert.deepStrictEqual(yield* confirmation.confirm(user.id, token), { email: user.email, confirmed: true })
        assert.isTrue(Option.getOrThrow(yield* (yield* UserRepository).get(user.id)).emailConfirmed)
        assert.deepStrictEqual(yield* confirmation.send(user.id, origin), { _tag: "AlreadyConfirmed" })
        assert.isFalse(Option.getOrThrow(yield* (yield* UserRepository).get(other.id)).emailConfirmed)
      })
    )

    it.effect("API keys on these adapters: create within the role, list with the key, revoke once", () =>
      Effect.gen(function* () {
        const { workspace, who } = yield* aTeam(["admin", "analyst"])
        const [admin, analyst] = [who("admin"), who("analyst")]
        const keys = yield* ApiKeys
        const created = yield* keys.create(workspace.id, admin, {
          name: "nightly export",
          scopes: ["recommendations:read"],
          expiresInDays: 30
        })
        assert.match(created.secret, /^pck_/)
        assert.deepStrictEqual(
          (yield* keys.list(workspace.id, admin)).items.map((token) => token.id),
          [created.token.id]
        )
        assert.strictEqual((yield* Effect.flip(keys.list(workspace.id, analyst)))._tag, "ForbiddenRole")
        const revoked = yield* keys.revoke(workspace.id, admin, created.token.id)
        assert.isNotNull(revoked.revokedAt)
        const other = yield* seedWorkspace()
        assert.strictEqual(
          (yield* Effect.flip(keys.revoke(other.id, admin, created.token.id)))._tag,
          "ResourceNotFound"
        )
        const access = yield* WorkspaceAccess
        assert.strictEqual((yield* Effect.flip(access.membershipIn(other.id, admin.userId)))._tag, "ResourceNotFound")
        assert.isTrue(Result.isSuccess(yield* Effect.result(access.membershipIn(workspace.id, admin.userId))))
      })
    )
  })
