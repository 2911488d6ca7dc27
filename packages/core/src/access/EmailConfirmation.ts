import { Clock, Context, Effect, Layer, Option } from "effect"
import { InvalidInput, type RepositoryError, ResourceNotFound } from "../kernel/Errors.ts"
import type { UserId } from "../kernel/Ids.ts"
import { Mailer } from "../kernel/Mailer.ts"
import { EmailLinks } from "./EmailLinks.ts"
import type { User } from "./User.ts"
import { UserRepository } from "./UserRepository.ts"

/** Where a person's address stands, as the console shows it. */
export interface EmailState {
  readonly email: string
  readonly confirmed: boolean
}

/** The path of the console's confirm page; the link of the mail is it with `?token=`. */
export const confirmEmailPath = "/app/confirm-email"

/** What the sending answered: mailed, already confirmed (nothing sent), or not accepted by the mailer. */
export type ConfirmationSent =
  | { readonly _tag: "Sent"; readonly email: string }
  | { readonly _tag: "AlreadyConfirmed" }
  | { readonly _tag: "NotSent"; readonly reason: string }

const badLink = () =>
  new InvalidInput({
    path: "token",
    message: "This confirmation link is not valid or has expired: send a new one from the console."
  })

/**
 * A person confirms their e-mail address (runs and other actions need it: "Confirm your e-mail
 * address first"): a link by mail, signed for 24 hours (`EmailLinks`), opened while signed in as
 * that person, confirms the address it was sent to; an address changed since is not confirmed.
 */
export class EmailConfirmation extends Context.Service<
  EmailConfirmation,
  {
    readonly state: (userId: UserId) => Effect.Effect<EmailState, ResourceNotFound | RepositoryError>
    /** `origin`: the service's configured origin, for the link. */
    readonly send: (
      userId: UserId,
      origin: string
    ) => Effect.Effect<ConfirmationSent, ResourceNotFound | RepositoryError>
    /** Confirms the address the token names, for the signed-in `userId` only; a repeat is fine. */
    readonly confirm: (
      userId: UserId,
      token: string
    ) => Effect.Effect<EmailState, InvalidInput | ResourceNotFound | RepositoryError>
  }
>()("margin/core/EmailConfirmation") {
  static readonly layer = Layer.effect(
    EmailConfirmation,
    Effect.gen(function* () {
      const users = yield* UserRepository
      const links = yield* EmailLinks
      const mailer = yield* Effect.serviceOption(Mailer)

      const live = (userId: UserId): Effect.Effect<User, ResourceNotFound | RepositoryError> =>
        Effect.flatMap(users.get(userId), (found) =>
          Option.isSome(found) && found.value.deletedAt === null
            ? Effect.succeed(found.value)
            : Effect.fail(new ResourceNotFound({ resource: "user", id: userId }))
        )

      return EmailConfirmation.of({
        state: (userId) => Effect.map(live(userId), (user) => ({ email: user.email, confirmed: user.emailConfirmed })),

        send: Effect.fn("EmailConfirmation.send")(function* (userId, origin) {
          const user = yield* live(userId)
          if (user.emailConfirmed) return { _tag: "AlreadyConfirmed" } as const
          const token = yield* links.confirmation(user.id, user.email)
          const now = yield* Clock.currentTimeMillis
          const message = {
            key: `confirm:${user.id}:${now}`,
            to: user.email,
            subject: "Confirm your e-mail address for Margin",
            text: [
              "Confirm that this address is yours (the link works for 24 hours, while you are signed in):",
              `${origin}${confirmEmailPath}?${new URLSearchParams({ token }).toString()}`,
              "",
              "If you did not ask for this, ignore this message."
            ].join("\n"),
            date: now
          }
          return yield* Option.match(mailer, {
            onNone: () => Effect.succeed<ConfirmationSent>({ _tag: "NotSent", reason: "this server sends no mail" }),
            onSome: (found) =>
              found.send(message).pipe(
                Effect.as<ConfirmationSent>({ _tag: "Sent", email: user.email }),
                Effect.catchTag("MailNotSent", (error) =>
                  Effect.succeed<ConfirmationSent>({ _tag: "NotSent", reason: error.reason })
                )
              )
          })
        }),

        confirm: Effect.fn("EmailConfirmation.confirm")(function* (userId, token) {
          const claim = yield* links.readConfirmation(token)
          const user = yield* live(userId)
          if (Option.isNone(claim) || claim.value.userId !== userId || claim.value.email !== user.email) {
            return yield* badLink()
          }
          if (!user.emailConfirmed) yield* users.setEmailConfirmed(userId, true)
          return { email: user.email, confirmed: true }
        })
      })
    })
  )
}
