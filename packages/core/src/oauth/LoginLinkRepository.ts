import { Context, type Effect } from "effect"
import type { RepositoryError } from "../kernel/Errors.ts"

/**
 * The sign-in links already used, by the hex SHA-256 of the link's nonce, each kept until the link
 * expires (after that its signature refuses it anyway): what makes a link single-use.
 */
export class LoginLinkRepository extends Context.Service<
  LoginLinkRepository,
  {
    /**
     * Records the link used at `at`. True only for the first use of a nonce: of concurrent uses of
     * one link exactly one is true.
     */
    readonly use: (nonceHash: string, expiresAt: number, at: number) => Effect.Effect<boolean, RepositoryError>
    /** Forgets the links expired at `now` (`expiresAt <= now`); answers how many. */
    readonly deleteExpired: (now: number) => Effect.Effect<number, RepositoryError>
  }
>()("margin/core/LoginLinkRepository") {}
