import { toIso } from "@margin/core/kernel/Timestamp"
import { defaultSessionLifetimeSeconds, SessionSigner, sessionKeySource } from "@margin/edge/auth"
import { Clock, Console, Effect } from "effect"
import { Command, Flag } from "effect/cli"
import { positiveIntFlag, userFlag } from "./Flags.ts"
import { report } from "./Output.ts"
import { requireUser } from "./UserCommands.ts"

export const sessionTokenCommand = Command.make(
  "session-token",
  {
    user: userFlag,
    expiresIn: positiveIntFlag("expires-in", "seconds").pipe(Flag.withDefault(defaultSessionLifetimeSeconds))
  },
  Effect.fn(function* ({ user: userId, expiresIn }) {
    yield* requireUser(userId)
    const source = yield* sessionKeySource
    if (source._tag !== "Development") {
      // The token is still printed: a service started without that variable accepts it.
      yield* Console.error(
        "marginctl: warning: a session key is configured (SESSION_JWKS_FILE, SESSION_PUBLIC_KEY or SESSION_JWKS_URL); a service using it will not accept this development token"
      )
    }
    const now = yield* Clock.currentTimeMillis
    const token = yield* (yield* SessionSigner).sign(userId, expiresIn)
    yield* report(
      { token, user_id: userId, expires_at: toIso(Math.floor(now / 1000) * 1000 + expiresIn * 1000) },
      (r) => `Session token for ${r.user_id}, expires ${r.expires_at}:\n${r.token}`
    )
  })
).pipe(
  Command.withDescription("Sign a session JWT for a user with the development identity key"),
  Command.withExamples([{ command: "marginctl session-token --user usr_01jh8y --json" }]),
  Command.provide(SessionSigner.layerDevelopment)
)
