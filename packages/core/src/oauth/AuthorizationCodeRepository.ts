import { Context, type Effect, type Option } from "effect"
import type { RepositoryError } from "../kernel/Errors.ts"
import type { AuthorizationCode } from "./AuthorizationCode.ts"

/** Authorization codes, by the hex SHA-256 of the code. */
export class AuthorizationCodeRepository extends Context.Service<
  AuthorizationCodeRepository,
  {
    readonly insert: (codeHash: string, code: AuthorizationCode) => Effect.Effect<void, RepositoryError>
    /** The code as stored, without marking it: a redemption is checked before it spends the code. */
    readonly find: (codeHash: string) => Effect.Effect<Option.Option<AuthorizationCode>, RepositoryError>
    /**
     * Marks the code used at `at` and answers it as it was before, in one atomic step: of two
     * concurrent redemptions exactly one sees `usedAt: null`. A second call keeps the first instant.
     */
    readonly consume: (codeHash: string, at: number) => Effect.Effect<Option.Option<AuthorizationCode>, RepositoryError>
    /**
     * Deletes the codes expired at `now` (`expiresAt <= now`), used or not: a redemption of one is
     * refused anyway. A used code stays until then, so that its replay is still recognised. Answers
     * how many went.
     */
    readonly deleteExpired: (now: number) => Effect.Effect<number, RepositoryError>
  }
>()("margin/core/AuthorizationCodeRepository") {}
