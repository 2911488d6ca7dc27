import { Context, type Effect, type Option } from "effect"
import type { RepositoryError } from "../kernel/Errors.ts"
import type { AlertId, CatalogItemId, WorkspaceId } from "../kernel/Ids.ts"
import type { Outcome } from "../kernel/Outcome.ts"
import type { Page, PageRequest } from "../kernel/Page.ts"
import type { AlertKind } from "../pricing/Pricing.ts"
import type { Alert } from "./Alert.ts"

export interface AlertFilter {
  /** Effective status: `open` includes snoozes that have expired by `now`, `snoozed` excludes them. */
  readonly status: "open" | "snoozed" | "resolved" | "dismissed" | null
  readonly kind: AlertKind | null
  readonly itemId: CatalogItemId | null
}

export class AlertRepository extends Context.Service<
  AlertRepository,
  {
    readonly get: (workspaceId: WorkspaceId, id: AlertId) => Effect.Effect<Option.Option<Alert>, RepositoryError>
    readonly list: (
      workspaceId: WorkspaceId,
      filter: AlertFilter,
      page: PageRequest,
      now: number
    ) => Effect.Effect<Page<Alert>, RepositoryError>
    readonly update: (
      workspaceId: WorkspaceId,
      id: AlertId,
      decide: (current: Alert) => Outcome<Alert>
    ) => Effect.Effect<Option.Option<Outcome<Alert>>, RepositoryError>
    /**
     * Raises alerts, deduplicated: while an alert of the same (item, kind) is open or snoozed,
     * a new one is skipped. Returns how many were raised.
     */
    readonly raiseMany: (alerts: ReadonlyArray<Alert>) => Effect.Effect<number, RepositoryError>
  }
>()("margin/core/AlertRepository") {}
