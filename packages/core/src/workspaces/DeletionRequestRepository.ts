import { Context, type Effect, type Option } from "effect"
import type { RepositoryError } from "../kernel/Errors.ts"
import type { UserId } from "../kernel/Ids.ts"
import type { DeletionRequest, DeletionState } from "./DeletionRequest.ts"

export class DeletionRequestRepository extends Context.Service<
  DeletionRequestRepository,
  {
    /** The user's request in state pending or blocked, if any. */
    readonly activeFor: (userId: UserId) => Effect.Effect<Option.Option<DeletionRequest>, RepositoryError>
    readonly insert: (request: DeletionRequest) => Effect.Effect<void, RepositoryError>
    /** Moves the user's active request to `state`; false when there is none. */
    readonly setState: (userId: UserId, state: DeletionState) => Effect.Effect<boolean, RepositoryError>
  }
>()("margin/core/DeletionRequestRepository") {}
