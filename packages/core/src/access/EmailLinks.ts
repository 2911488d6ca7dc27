import { Context, type Effect, type Option } from "effect"
import type { UserId } from "../kernel/Ids.ts"

/** What a confirmation link names: the user and the address it was sent to. */
export interface EmailConfirmationClaim {
  readonly userId: UserId
  readonly email: string
}

/**
 * The links the service mails to people, signed with the sign-in key by the sign-in pages' side
 * (core cannot sign): a sign-in link (the same one-use, 10-minute link the sign-in page mails) and
 * an e-mail confirmation link. Both answer paths of this service; the caller puts them under the
 * service's configured origin.
 */
export class EmailLinks extends Context.Service<
  EmailLinks,
  {
    /** The path and query of a sign-in link for `userId` that lands on `returnTo` (a console path). */
    readonly signIn: (userId: UserId, returnTo: string) => Effect.Effect<string>
    /** The token of a link confirming that `email` is `userId`'s (valid 24 hours). */
    readonly confirmation: (userId: UserId, email: string) => Effect.Effect<string>
    /** What a confirmation token names, when it is ours and current. */
    readonly readConfirmation: (token: string) => Effect.Effect<Option.Option<EmailConfirmationClaim>>
  }
>()("margin/core/EmailLinks") {}
