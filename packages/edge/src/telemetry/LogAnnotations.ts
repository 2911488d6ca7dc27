import { Context, References } from "effect"

/**
 * `context` with `annotations` added to the log annotations it carries (what `Effect.annotateLogs`
 * does, as a change of context): for a middleware that puts them in the one change of context it
 * makes anyway.
 */
export const withLogAnnotations = <R>(
  context: Context.Context<R>,
  annotations: Readonly<Record<string, unknown>>
): Context.Context<R> =>
  Context.add(context, References.CurrentLogAnnotations, {
    ...Context.get(context, References.CurrentLogAnnotations),
    ...annotations
  })
