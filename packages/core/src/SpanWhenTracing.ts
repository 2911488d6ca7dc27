import { Effect, References } from "effect"

/**
 * The span `name` around an effect when tracing is on (References.TracerEnabled), and nothing at all
 * when it is off. For the use cases every request runs: Effect.fn costs a stack capture, a span and
 * two changes of context per call even with tracing off, a few microseconds each in a server whose
 * context holds every service.
 */
export const spanWhenTracing =
  (name: string) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.withFiber((fiber) => (fiber.getRef(References.TracerEnabled) ? Effect.withSpan(effect, name) : effect))
