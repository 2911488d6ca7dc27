import { Clock, Effect } from "effect"
import { AuthorizationCodeRepository } from "./ports/AuthorizationCodeRepository.ts"
import { LoginLinkRepository } from "./ports/LoginLinkRepository.ts"
import { OAuthGrantRepository } from "./ports/OAuthGrantRepository.ts"

/** How many rows one cleanup deleted, by kind. */
export interface OAuthCleanupCounts {
  readonly codes: number
  readonly tokens: number
  readonly links: number
}

/**
 * Deletes the OAuth rows nothing can use any more (now, by the clock): expired authorization codes,
 * tokens expired, revoked or of a revoked grant, and the records of expired sign-in links. Grants
 * and live tokens stay. Safe to run from several processes at once: each deletion is idempotent.
 */
export const cleanUpOAuthRows = Effect.fn("OAuthCleanup.run")(function* () {
  const now = yield* Clock.currentTimeMillis
  const codes = yield* AuthorizationCodeRepository.use((repository) => repository.deleteExpired(now))
  const tokens = yield* OAuthGrantRepository.use((repository) => repository.deleteDeadTokens(now))
  const links = yield* LoginLinkRepository.use((repository) => repository.deleteExpired(now))
  const counts: OAuthCleanupCounts = { codes, tokens, links }
  return counts
})
