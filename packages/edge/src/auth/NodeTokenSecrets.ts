import { TokenSecrets } from "@margin/core/access/TokenSecrets"
import { Effect, Layer } from "effect"
import { generateTokenSecret, hashTokenSecret } from "./TokenSecret.ts"

/** API token secrets on Node's crypto: 32 random bytes after `pck_`, stored as their SHA-256. */
export const layer = Layer.succeed(
  TokenSecrets,
  TokenSecrets.of({
    next: Effect.sync(() => {
      const secret = generateTokenSecret()
      return { secret, hash: hashTokenSecret(secret) }
    })
  })
)
