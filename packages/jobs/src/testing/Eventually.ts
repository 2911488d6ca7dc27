import { Duration, Effect, Schedule } from "effect"

/**
 * Polls `check` every `every` until it holds: the way tests wait for background work (a delivery
 * loop, another process) without sleeping a fixed time. Not holding within `within` is a defect
 * that names `what`; failures of `check` are defects too.
 */
export const eventually = <E, R>(
  check: Effect.Effect<boolean, E, R>,
  what: string,
  options: { readonly within?: Duration.Input; readonly every?: Duration.Input } = {}
): Effect.Effect<void, never, R> =>
  Effect.flatMap(Effect.orDie(check), (holds) => (holds ? Effect.void : Effect.fail("not yet" as const))).pipe(
    Effect.retry(Schedule.spaced(options.every ?? Duration.millis(20))),
    Effect.timeoutOrElse({
      duration: options.within ?? Duration.seconds(10),
      orElse: () =>
        Effect.die(
          `not within ${Duration.format(Duration.fromInputUnsafe(options.within ?? Duration.seconds(10)))}: ${what}`
        )
    }),
    Effect.orDie
  )
