import { Context, type Effect } from "effect"
import type { IdKind } from "./Ids.ts"

/** New ids: `<prefix>_<unique>`, roughly time-ordered. Randomness lives in the adapter. */
export class IdGenerator extends Context.Service<
  IdGenerator,
  {
    readonly next: (kind: IdKind) => Effect.Effect<string>
  }
>()("margin/core/IdGenerator") {}
