import { Effect, Layer, Ref } from "effect"
import { OAuthSecrets } from "../oauth/OAuthSecrets.ts"

/** The hex of each character code, cut or padded to 64 digits from the right: distinct for short inputs. */
export const hexOf = (text: string): string =>
  Array.from(text, (char) => char.charCodeAt(0).toString(16).padStart(2, "0"))
    .join("")
    .padStart(64, "0")
    .slice(-64)

/**
 * Core's tests' OAuthSecrets: numbered secrets (`mat_000001`) and a reversible stand-in for the
 * hashes, so a test can predict them. Not cryptographic: @margin/edge's NodeOAuthSecrets is.
 */
export const layer: Layer.Layer<OAuthSecrets> = Layer.effect(
  OAuthSecrets,
  Effect.gen(function* () {
    const counter = yield* Ref.make(0)
    return OAuthSecrets.of({
      issue: (prefix) =>
        Ref.updateAndGet(counter, (n) => n + 1).pipe(
          Effect.map((n) => {
            const secret = `${prefix}${String(n).padStart(6, "0")}`
            return { secret, hash: hexOf(secret) }
          })
        ),
      hash: hexOf,
      s256: (verifier) => `${[...verifier].reverse().join("")}${"A".repeat(43)}`.slice(0, 43)
    })
  })
)
