import { Context, Effect, Layer } from "effect"

/**
 * A handler group (`HttpApiBuilder.group`) built on the services its layer requires and nothing
 * else: `make` reads the use cases its handlers close over and returns the group; the group is
 * then built with `requirements` alone (its middlewares), which must cover everything it requires,
 * or this does not compile.
 *
 * Why: HttpApiBuilder provides the whole context a group was built in to every request of the
 * group, a merge that copies the request's context and that one. Built in the server's context,
 * that is about 50 services per request for nothing: handlers take what they use when built.
 */
export const isolatedGroup = <
  A,
  E,
  R extends Context.Service.Identifier<Requirements[number]>,
  E2,
  R2,
  const Requirements extends ReadonlyArray<Context.Key<unknown, unknown>>
>(
  make: Effect.Effect<Layer.Layer<A, E, R>, E2, R2>,
  ...requirements: Requirements
): Layer.Layer<A, E | E2, R2 | Context.Service.Identifier<Requirements[number]>> =>
  Layer.effectContext(
    Effect.gen(function* () {
      const group = yield* make
      const scope = yield* Effect.scope
      return yield* Effect.updateContext(
        Layer.buildWithScope(group, scope),
        (context: Context.Context<Context.Service.Identifier<Requirements[number]>>) =>
          Context.pick(...requirements)(context)
      )
    })
  )
