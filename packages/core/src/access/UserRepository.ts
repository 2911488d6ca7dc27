import { Context, type Effect, type Option } from "effect"
import type { RepositoryError } from "../kernel/Errors.ts"
import type { UserId } from "../kernel/Ids.ts"
import type { Page, PageRequest } from "../kernel/Page.ts"
import type { User } from "./User.ts"

export class UserRepository extends Context.Service<
  UserRepository,
  {
    readonly get: (id: UserId) => Effect.Effect<Option.Option<User>, RepositoryError>
    readonly findByEmail: (email: string) => Effect.Effect<Option.Option<User>, RepositoryError>
    readonly insert: (user: User) => Effect.Effect<void, RepositoryError>
    /** Soft delete: tokens this user issued become unusable for mutations. */
    readonly markDeleted: (id: UserId, at: number) => Effect.Effect<boolean, RepositoryError>
    readonly setEmailConfirmed: (id: UserId, confirmed: boolean) => Effect.Effect<boolean, RepositoryError>
    /** Every user of the platform, deleted ones too, newest first: for operators (marginctl). */
    readonly list: (page: PageRequest) => Effect.Effect<Page<User>, RepositoryError>
  }
>()("margin/core/UserRepository") {}
