import { Clock, Context, Effect, Layer, Option } from "effect"
import type { Alert } from "../alerts/Alert.ts"
import { AlertRepository } from "../alerts/AlertRepository.ts"
import { type RepositoryError, ResourceNotFound } from "../kernel/Errors.ts"
import type { CatalogItemId, WorkspaceId } from "../kernel/Ids.ts"
import type { Recommendation } from "../recommendations/Recommendation.ts"
import { RecommendationRepository } from "../recommendations/RecommendationRepository.ts"
import type { CatalogItem } from "./CatalogItem.ts"
import { CatalogRepository } from "./CatalogRepository.ts"

/** How many of an item's newest recommendations and alerts its page lists. */
export const itemOverviewListLimit = 20

/** One catalog item as its page shows it: the item, its newest recommendations and alerts. */
export interface ItemOverview {
  readonly item: CatalogItem
  readonly recommendations: ReadonlyArray<Recommendation>
  /** True when the item has more recommendations than listed. */
  readonly moreRecommendations: boolean
  readonly alerts: ReadonlyArray<Alert>
  readonly moreAlerts: boolean
}

export class ItemOverviews extends Context.Service<
  ItemOverviews,
  {
    readonly get: (
      workspaceId: WorkspaceId,
      id: CatalogItemId
    ) => Effect.Effect<ItemOverview, ResourceNotFound | RepositoryError>
  }
>()("margin/core/ItemOverviews") {
  static readonly layer = Layer.effect(
    ItemOverviews,
    Effect.gen(function* () {
      const catalog = yield* CatalogRepository
      const recommendations = yield* RecommendationRepository
      const alerts = yield* AlertRepository
      return ItemOverviews.of({
        get: Effect.fn("ItemOverviews.get")(function* (workspaceId, id) {
          const item = yield* catalog.get(workspaceId, id)
          if (Option.isNone(item)) return yield* new ResourceNotFound({ resource: "catalog item", id })
          const page = { limit: itemOverviewListLimit, cursor: null }
          const itsRecommendations = yield* recommendations.list(
            workspaceId,
            { status: null, runId: null, itemId: id },
            page
          )
          const itsAlerts = yield* alerts.list(
            workspaceId,
            { status: null, kind: null, itemId: id },
            page,
            yield* Clock.currentTimeMillis
          )
          return {
            item: item.value,
            recommendations: itsRecommendations.items,
            moreRecommendations: itsRecommendations.nextCursor !== null,
            alerts: itsAlerts.items,
            moreAlerts: itsAlerts.nextCursor !== null
          }
        })
      })
    })
  )
}
