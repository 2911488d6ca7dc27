import { createHash, randomBytes } from "node:crypto"
import { OAuthSecrets } from "@margin/core/oauth/OAuthSecrets"
import { Effect, Layer } from "effect"

/** 256 random bits, as for `pck_` tokens: unguessable, and only their hash is kept. */
const secretBytes = 32

const sha256Hex = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex")

/** The authorization server's secrets on Node's crypto: random codes and tokens, SHA-256, PKCE's S256. */
export const layer: Layer.Layer<OAuthSecrets> = Layer.succeed(
  OAuthSecrets,
  OAuthSecrets.of({
    issue: (prefix) =>
      Effect.sync(() => {
        const secret = `${prefix}${randomBytes(secretBytes).toString("base64url")}`
        return { secret, hash: sha256Hex(secret) }
      }),
    hash: sha256Hex,
    // RFC 7636 section 4.2: BASE64URL(SHA256(ASCII(code_verifier))); a verifier is ASCII by its grammar.
    s256: (verifier) => createHash("sha256").update(verifier, "ascii").digest("base64url")
  })
)
