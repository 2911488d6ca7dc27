import { Context, type Effect, type Option } from "effect"
import type { RepositoryError } from "./Errors.ts"
import type { WorkspaceId } from "./Ids.ts"

/** How long an `Idempotency-Key` names its first request: a repeat after that is a new request. */
export const idempotencyWindowMs = 24 * 60 * 60 * 1000

/** What a request sent with an idempotency key did the first time. */
export interface IdempotentRequest {
  readonly workspaceId: WorkspaceId
  /** The operation's id (`triggerRun`): one key may be used by several operations. */
  readonly operation: string
  readonly key: string
  /** The request's arguments in one canonical text: a repeat must send the same. */
  readonly fingerprint: string
  /** What the first request made (a run's id). */
  readonly resourceId: string
  readonly createdAt: number
}

/**
 * The requests made with an `Idempotency-Key` (Stripe's semantics), per workspace and operation:
 * a repeat of the key within `idempotencyWindowMs` answers what the first did. Callers `find` and
 * `record` inside one transaction that holds the workspace's usage lock, so two requests with one
 * key cannot both miss the record.
 */
export class IdempotencyKeyRepository extends Context.Service<
  IdempotencyKeyRepository,
  {
    /** The request recorded under (workspace, operation, key) at or after `since`; none when none is, or it is older. */
    readonly find: (
      workspaceId: WorkspaceId,
      operation: string,
      key: string,
      since: number
    ) => Effect.Effect<Option.Option<IdempotentRequest>, RepositoryError>
    /** Records the request, replacing an older one of the same (workspace, operation, key). */
    readonly record: (request: IdempotentRequest) => Effect.Effect<void, RepositoryError>
  }
>()("margin/core/IdempotencyKeyRepository") {}
