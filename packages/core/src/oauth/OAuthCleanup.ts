import { Clock, Effect } from "effect"
import { AuthorizationCodeRepository } from "./AuthorizationCodeRepository.ts"
import { LoginLinkRepository } from "./LoginLinkRepository.ts"
import { OAuthClientRepository } from "./OAuthClientRepository.ts"
import { OAuthGrantRepository } from "./OAuthGrantRepository.ts"

/** How many rows one cleanup deleted, by kind. */
export interface OAuthCleanupCounts {
  readonly codes: number
  readonly tokens: number
  readonly links: number
  readonly clients: number
}

/**
 * How long a client may stay without a completed consent: a registration (or a metadata document
 * read) nobody consented to within a day is deleted. Registration is open to anyone, so unused
 * ones would otherwise pile up for good.
 */
export const unusedClientLifetimeMs = 24 * 60 * 60_000

/**
 * Deletes the OAuth rows nothing can use any more (now, by the clock): expired authorization codes,
 * tokens expired, revoked or of a revoked grant, the records of expired sign-in links, and the
 * clients older than `unusedClientLifetimeMs` that no grant names. Grants, their clients and live
 * tokens stay. Safe to run from several processes at once: each deletion is idempotent.
 */
export const cleanUpOAuthRows = Effect.fn("OAuthCleanup.run")(function* () {
  const now = yield* Clock.currentTimeMillis
  const codes = yield* AuthorizationCodeRepository.use((repository) => repository.deleteExpired(now))
  const tokens = yield* OAuthGrantRepository.use((repository) => repository.deleteDeadTokens(now))
  const links = yield* LoginLinkRepository.use((repository) => repository.deleteExpired(now))
  const clients = yield* OAuthClientRepository.use((repository) =>
    repository.deleteUnused(now - unusedClientLifetimeMs)
  )
  const counts: OAuthCleanupCounts = { codes, tokens, links, clients }
  return counts
})
