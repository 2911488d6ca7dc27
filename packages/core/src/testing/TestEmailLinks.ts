import { Effect, Layer, Option } from "effect"
import { EmailLinks } from "../access/EmailLinks.ts"
import { UserId } from "../kernel/Ids.ts"

/**
 * Links without a signature, readable by the tests: `confirm.<user>.<address>` (the address
 * URI-encoded). The real links are signed by the sign-in pages' side (EmailLinksLayer).
 */
export const layer = Layer.succeed(
  EmailLinks,
  EmailLinks.of({
    signIn: (userId, returnTo) =>
      Effect.succeed(`/oauth/login/link?${new URLSearchParams({ token: `link.${userId}`, return_to: returnTo })}`),
    confirmation: (userId, email) => Effect.succeed(`confirm.${userId}.${encodeURIComponent(email)}`),
    readConfirmation: (token) => {
      const [kind, userId, ...rest] = token.split(".")
      const email = rest.join(".")
      return Effect.succeed(
        kind === "confirm" && userId !== undefined && email !== ""
          ? Option.some({ userId: UserId.make(userId), email: decodeURIComponent(email) })
          : Option.none()
      )
    }
  })
)
