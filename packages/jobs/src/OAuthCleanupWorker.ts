import { cleanUpOAuthRows } from "@margin/core/oauth/OAuthCleanup"
import { Cause, Config, Deferred, Duration, Effect, Layer } from "effect"
import { PositiveDuration } from "./DeliverySettings.ts"
import { forkLoops, pauseUnlessStopping } from "./Loops.ts"

export interface OAuthCleanupOptions {
  /** The pause between two cleanups (the first runs at start). */
  readonly interval: Duration.Input
}

export const defaultOAuthCleanupOptions: OAuthCleanupOptions = { interval: Duration.minutes(10) }

/** From the environment: OAUTH_CLEANUP_INTERVAL (default "10 minutes"; zero is refused: no busy loop). */
export const oauthCleanupConfig: Config.Config<OAuthCleanupOptions> = Config.all({
  interval: Config.schema(PositiveDuration, "OAUTH_CLEANUP_INTERVAL").pipe(
    Config.withDefault(Duration.fromInputUnsafe(defaultOAuthCleanupOptions.interval))
  )
})

/** One cleanup, logged with its counts; a failure is logged and the next round tries again. */
const round = cleanUpOAuthRows().pipe(
  Effect.flatMap((counts) =>
    Effect.logInfo("expired OAuth rows deleted").pipe(
      Effect.annotateLogs({
        codes: counts.codes,
        tokens: counts.tokens,
        links: counts.links,
        clients: counts.clients
      })
    )
  ),
  Effect.catchCause((cause) =>
    Cause.hasInterruptsOnly(cause) ? Effect.interrupt : Effect.logWarning("OAuth cleanup failed", cause)
  )
)

const cleanupLoop = (options: OAuthCleanupOptions, stopping: Deferred.Deferred<void>) =>
  Effect.gen(function* () {
    while (!(yield* Deferred.isDone(stopping))) {
      yield* round
      yield* pauseUnlessStopping(stopping, options.interval)
    }
  })

/**
 * The OAuth cleanup: one loop on a fiber of the layer's scope, a round at start and then every
 * `interval`. Each process that runs Jobs.layer runs one; concurrent rounds are harmless.
 */
export const layerWith = (options: OAuthCleanupOptions) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      yield* forkLoops(
        {
          job: "oauth-cleanup",
          concurrency: 1,
          drainTimeout: Duration.seconds(5),
          cutShort: "what it did not delete goes at the next start's first round"
        },
        (_owner, stopping) => Effect.annotateLogs(cleanupLoop(options, stopping), { job: "oauth-cleanup" })
      )
      yield* Effect.logInfo("oauth-cleanup worker started").pipe(
        Effect.annotateLogs({
          job: "oauth-cleanup",
          interval: Duration.format(Duration.fromInputUnsafe(options.interval))
        })
      )
    })
  )

/** The OAuth cleanup configured by `oauthCleanupConfig`. */
export const layer = Layer.unwrap(Effect.map(oauthCleanupConfig, layerWith))
