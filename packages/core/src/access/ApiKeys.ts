import { Clock, Context, Effect, Layer, Option } from "effect"
import { AuditTrail } from "../audit/AuditTrail.ts"
import { type ForbiddenRole, InvalidInput, type RepositoryError, ResourceNotFound } from "../kernel/Errors.ts"
import { IdGenerator } from "../kernel/IdGenerator.ts"
import { TokenId, type WorkspaceId } from "../kernel/Ids.ts"
import { maxPageLimit, type Page } from "../kernel/Page.ts"
import { Transactor } from "../kernel/Transactor.ts"
import { actorLabel } from "./Actor.ts"
import type { ApiToken } from "./ApiToken.ts"
import { type ActingMember, asManager } from "./Manager.ts"
import type { Role } from "./Role.ts"
import { scopesForRole } from "./RoleScopes.ts"
import type { Scope } from "./Scope.ts"
import { TokenRepository } from "./TokenRepository.ts"
import { TokenSecrets } from "./TokenSecrets.ts"

export type { ActingMember } from "./Manager.ts"

/** What a new key is: a name, its scopes, and how many days it lasts (null: until revoked). */
export interface NewApiKey {
  readonly name: string
  readonly scopes: ReadonlyArray<Scope>
  readonly expiresInDays: number | null
}

/** A created key and its `pck_…` secret: shown once, never stored (only its hash is). */
export interface CreatedApiKey {
  readonly token: ApiToken
  readonly secret: string
}

export const maxNameLength = 100
export const maxExpiryDays = 365
const dayMs = 24 * 60 * 60_000

/** Controls and bidi overrides would make a name lie on the page that lists it. */
const unprintable = /[\p{Cc}\p{Cf}]/u

export type ApiKeyError = ForbiddenRole | InvalidInput | RepositoryError

/**
 * The workspace's API keys, as a member with the role admin or owner manages them (the settings'
 * "API keys"): list (with last use), create, revoke. A key carries only scopes the creator's role
 * allows (`scopesForRole`), so no one hands out more than they may do. Every change is audited in
 * the transaction of the write.
 */
export class ApiKeys extends Context.Service<
  ApiKeys,
  {
    readonly list: (
      workspaceId: WorkspaceId,
      member: ActingMember
    ) => Effect.Effect<Page<ApiToken>, ForbiddenRole | RepositoryError>
    readonly create: (
      workspaceId: WorkspaceId,
      member: ActingMember,
      input: NewApiKey
    ) => Effect.Effect<CreatedApiKey, ApiKeyError>
    /** Revokes the key; a key already revoked is answered as it is (a repeat changes nothing). */
    readonly revoke: (
      workspaceId: WorkspaceId,
      member: ActingMember,
      id: TokenId
    ) => Effect.Effect<ApiToken, ForbiddenRole | ResourceNotFound | RepositoryError>
  }
>()("margin/core/ApiKeys") {
  static readonly layer = Layer.effect(
    ApiKeys,
    Effect.gen(function* () {
      const tokens = yield* TokenRepository
      const secrets = yield* TokenSecrets
      const ids = yield* IdGenerator
      const transactor = yield* Transactor
      const trail = yield* AuditTrail

      const manager = asManager

      const invalid = (path: string, message: string) => Effect.fail(new InvalidInput({ path, message }))

      const checked = (role: Role, input: NewApiKey): Effect.Effect<NewApiKey, InvalidInput> => {
        const name = input.name.trim()
        if (name === "" || name.length > maxNameLength || unprintable.test(name)) {
          return invalid("name", `a name of 1 to ${maxNameLength} printable characters`)
        }
        const allowed = scopesForRole(role)
        if (input.scopes.length === 0) return invalid("scopes", "choose at least one scope")
        const beyond = input.scopes.filter((scope) => !allowed.includes(scope))
        if (beyond.length > 0) return invalid("scopes", `your role (${role}) may not grant ${beyond.join(", ")}`)
        const days = input.expiresInDays
        if (days !== null && (!Number.isInteger(days) || days < 1 || days > maxExpiryDays)) {
          return invalid("expires_in_days", `a whole number of days from 1 to ${maxExpiryDays}, or never`)
        }
        return Effect.succeed({
          name,
          scopes: allowed.filter((scope) => input.scopes.includes(scope)),
          expiresInDays: days
        })
      }

      const audit = (workspaceId: WorkspaceId, member: ActingMember, action: string, token: ApiToken, now: number) =>
        trail.record({
          workspaceId,
          actor: actorLabel({ _tag: "SessionActor", userId: member.userId }),
          action,
          resourceType: "token",
          resourceId: token.id,
          beforeStatus: null,
          afterStatus: null,
          at: now
        })

      return ApiKeys.of({
        list: (workspaceId, member) =>
          Effect.andThen(
            manager(member),
            tokens.listForWorkspace(workspaceId, { issuedBy: null }, { limit: maxPageLimit, cursor: null })
          ),
        create: Effect.fn("ApiKeys.create")(function* (workspaceId, member, input) {
          const role = yield* manager(member)
          const valid = yield* checked(role, input)
          const now = yield* Clock.currentTimeMillis
          const secret = yield* secrets.next
          const token: ApiToken = {
            id: TokenId.make(yield* ids.next("token")),
            workspaceId,
            issuedBy: member.userId,
            name: valid.name,
            scopes: valid.scopes,
            createdAt: now,
            expiresAt: valid.expiresInDays === null ? null : now + valid.expiresInDays * dayMs,
            revokedAt: null,
            lastUsedAt: null
          }
          yield* transactor.transaction(
            Effect.andThen(tokens.insert(token, secret.hash), audit(workspaceId, member, "token.create", token, now))
          )
          return { token, secret: secret.secret }
        }),
        revoke: Effect.fn("ApiKeys.revoke")(function* (workspaceId, member, id) {
          yield* manager(member)
          const found = yield* tokens.get(id)
          if (Option.isNone(found) || found.value.workspaceId !== workspaceId) {
            return yield* new ResourceNotFound({ resource: "token", id })
          }
          if (found.value.revokedAt !== null) return found.value
          const now = yield* Clock.currentTimeMillis
          const revoked: ApiToken = { ...found.value, revokedAt: now }
          yield* transactor.transaction(
            Effect.andThen(tokens.revoke(id, now), audit(workspaceId, member, "token.revoke", revoked, now))
          )
          return revoked
        })
      })
    })
  ).pipe(Layer.provide(AuditTrail.layer))
}
