import { Context, type Effect, type Option } from "effect"
import type { RepositoryError } from "../kernel/Errors.ts"
import type { WorkspaceId } from "../kernel/Ids.ts"
import type { SupportSession } from "./SupportSession.ts"

export class SupportSessionRepository extends Context.Service<
  SupportSessionRepository,
  {
    /** The session open against this workspace at `now`, if any. */
    readonly activeFor: (
      workspaceId: WorkspaceId,
      now: number
    ) => Effect.Effect<Option.Option<SupportSession>, RepositoryError>
    readonly open: (session: SupportSession) => Effect.Effect<void, RepositoryError>
    /** Closes every open session of the workspace; returns how many. */
    readonly close: (workspaceId: WorkspaceId, now: number) => Effect.Effect<number, RepositoryError>
  }
>()("margin/core/SupportSessionRepository") {}
