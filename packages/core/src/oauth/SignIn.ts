import { Context, Effect, Layer, Option } from "effect"
import type { User } from "../access/User.ts"
import { UserRepository } from "../access/UserRepository.ts"
import type { RepositoryError } from "../kernel/Errors.ts"
import type { UserId } from "../kernel/Ids.ts"
import { LoginLinkRepository } from "./LoginLinkRepository.ts"

/**
 * The browser sign-in's rules (the OAuth server's sign-in pages, the console's sign-in): who may
 * sign in (a known account, not deleted) and that a sign-in link works once. The pages keep the
 * cookies, the signatures and the HTML; the consent page lists workspaces through `WorkspaceAccess`.
 */
export class SignIn extends Context.Service<
  SignIn,
  {
    /** The account an address signs in to: known and not deleted, else none. */
    readonly accountByEmail: (email: string) => Effect.Effect<Option.Option<User>, RepositoryError>
    /** The account of a sign-in link or a session: known and not deleted, else none. */
    readonly account: (userId: UserId) => Effect.Effect<Option.Option<User>, RepositoryError>
    /** The user, deleted or not: to name who a browser is signed in as. */
    readonly user: (userId: UserId) => Effect.Effect<Option.Option<User>, RepositoryError>
    /**
     * Spends a sign-in link (its nonce's hash, kept until the link expires): true only for the
     * first use; of concurrent uses of one link exactly one is true.
     */
    readonly spendLink: (nonceHash: string, expiresAt: number, at: number) => Effect.Effect<boolean, RepositoryError>
  }
>()("margin/core/SignIn") {
  static readonly layer = Layer.effect(
    SignIn,
    Effect.gen(function* () {
      const users = yield* UserRepository
      const links = yield* LoginLinkRepository
      const live = (found: Option.Option<User>) => Option.filter(found, (user) => user.deletedAt === null)
      return SignIn.of({
        accountByEmail: (email) => Effect.map(users.findByEmail(email), live),
        account: (userId) => Effect.map(users.get(userId), live),
        user: (userId) => users.get(userId),
        spendLink: (nonceHash, expiresAt, at) => links.use(nonceHash, expiresAt, at)
      })
    })
  )
}
