import type { Actor } from "@margin/core/access/Actor"
import { MembershipRepository } from "@margin/core/access/MembershipRepository"
import { scopes } from "@margin/core/access/Scope"
import { TokenRepository } from "@margin/core/access/TokenRepository"
import { Alerts } from "@margin/core/alerts/Alerts"
import type { CatalogItem } from "@margin/core/catalog/CatalogItem"
import { CatalogRepository } from "@margin/core/catalog/CatalogRepository"
import {
  RecommendationId,
  type RecommendationId as RecommendationIdType,
  TokenId,
  type WorkspaceId
} from "@margin/core/kernel/Ids"
import type { Recommendation } from "@margin/core/recommendations/Recommendation"
import { RecommendationRepository } from "@margin/core/recommendations/RecommendationRepository"
import { Recommendations } from "@margin/core/recommendations/Recommendations"
import type { StorePlatform } from "@margin/core/stores/StoreConnection"
import { StoreConnectionRepository } from "@margin/core/stores/StoreConnectionRepository"
import { aCatalogItemInput, anApiToken, aRecommendation, aStoreConnection } from "@margin/core/testing/Fixtures"
import { freshId, seedRun, seedUser, seedWorkspace } from "@margin/core/testing/Seed"
import type { WriteBack } from "@margin/core/writeback/WriteBack"
import { WriteBackOutbox } from "@margin/core/writeback/WriteBackOutbox"
import { generateTokenSecret, hashTokenSecret } from "@margin/edge/auth"
import { PgSandboxStore } from "@margin/postgres"
import { Array as Arr, Clock, Effect, Option, Stream } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Seeds for the write-back fault tests and the approve benchmark, through the PostgreSQL adapters
 * of the test process: a workspace on the max plan with a connected store and an approver's API
 * token, catalog items whose store variants sell at the catalog price, and recommendations waiting
 * for approval. Every id is fresh, so several worlds can share a database.
 */

export interface ApprovalWorkspace {
  readonly workspaceId: WorkspaceId
  /** The `pck_` secret of an approver's token with every scope. */
  readonly token: string
  /** Its id: the rate budget counts under `token:<tokenId>`. */
  readonly tokenId: TokenId
}

/** A max-plan workspace with a connected store of `platform` (sandbox unless said) and an approver's token. */
export const seedApprovalWorkspace = Effect.fnUntraced(function* (
  options: { readonly platform?: StorePlatform; readonly shop?: string; readonly credentials?: string } = {}
) {
  const now = yield* Clock.currentTimeMillis
  const workspace = yield* seedWorkspace({ plan: "max", createdAt: now })
  yield* StoreConnectionRepository.use((stores) =>
    stores.connect(
      aStoreConnection({
        workspaceId: workspace.id,
        platform: options.platform ?? "sandbox",
        shop: options.shop ?? null,
        connectedAt: now
      }),
      options.credentials ?? null
    )
  )
  const user = yield* seedUser({ createdAt: now })
  yield* MembershipRepository.use((memberships) =>
    memberships.upsert({ workspaceId: workspace.id, userId: user.id, role: "approver" })
  )
  const token = generateTokenSecret()
  const apiToken = anApiToken({
    id: yield* freshId("token", TokenId.make),
    workspaceId: workspace.id,
    issuedBy: user.id,
    name: "write-back tests",
    scopes: [...scopes],
    createdAt: now
  })
  yield* TokenRepository.use((tokens) => tokens.insert(apiToken, hashTokenSecret(token)))
  return { workspaceId: workspace.id, token, tokenId: apiToken.id } satisfies ApprovalWorkspace
})

export interface PendingOptions {
  /** The catalog and store price, in minor units (default 1000). */
  readonly price?: number
  /** The recommended price (default 1099). */
  readonly recommendedPrice?: number
  /** The store variant of the n-th item (default `var-<sku>`); the sandbox store gets it at `price`. */
  readonly variantRef?: (sku: string) => string
  /** Whether the sandbox store gets the variants (default true; false for another platform). */
  readonly sandbox?: boolean
}

/** Items read per chunk when collecting the seeded catalog. */
const chunkSize = 1000

/**
 * `count` catalog items with store variants at `price`, and a recommendation for each, accepted and
 * waiting for approval (`pending_approval`) at `recommendedPrice`.
 */
export const seedPendingRecommendations = Effect.fnUntraced(function* (
  workspaceId: WorkspaceId,
  count: number,
  options: PendingOptions = {}
) {
  const now = yield* Clock.currentTimeMillis
  const price = options.price ?? 1000
  const variantRef = options.variantRef ?? ((sku: string) => `var-${sku}`)
  const run = yield* seedRun(workspaceId, { status: "succeeded", createdAt: now, finishedAt: now })
  const skus = Arr.makeBy(count, (index) => `SKU-${run.id}-${index}`)
  const catalog = yield* CatalogRepository
  yield* catalog.upsertMany(
    workspaceId,
    skus.map((sku) => aCatalogItemInput({ sku, title: `Item ${sku}`, price })),
    now
  )
  // Imports carry no store references: the items get theirs as a store sync would set them.
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    UPDATE catalog_items AS item SET store_variant_ref = refs.variant, store_product_ref = refs.product
    FROM unnest(${skus}::text[], ${skus.map(variantRef)}::text[], ${skus.map((sku) => `prod-${sku}`)}::text[])
      AS refs(sku, variant, product)
    WHERE item.workspace_id = ${workspaceId} AND item.sku = refs.sku`
  const items: Array<CatalogItem> = (yield* Stream.runCollect(catalog.streamForRun(workspaceId, [], chunkSize)))
    .flat()
    .filter((item) => item.sku.startsWith(`SKU-${run.id}-`))
  if (options.sandbox ?? true) {
    yield* PgSandboxStore.seedVariants(
      workspaceId,
      items.map((item) => ({ variantRef: variantRef(item.sku), price, currency: item.currency }))
    )
  }
  const recommendations: Array<Recommendation> = []
  for (const item of items) {
    recommendations.push(
      aRecommendation({
        id: yield* freshId("recommendation", RecommendationId.make),
        workspaceId,
        runId: run.id,
        itemId: item.id,
        sku: item.sku,
        currency: item.currency,
        currentPrice: price,
        recommendedPrice: options.recommendedPrice ?? 1099,
        status: "pending_approval",
        acceptedAt: now,
        acceptedBy: "seed",
        createdAt: now,
        updatedAt: now
      })
    )
  }
  yield* RecommendationRepository.use((repository) => repository.insertMany(recommendations))
  return recommendations
})

/** The outbox row of a recommendation; its absence is a failed expectation. */
export const writeBackOf = (workspaceId: WorkspaceId, recommendationId: RecommendationIdType) =>
  WriteBackOutbox.use((outbox) => outbox.getByRecommendation(workspaceId, recommendationId)).pipe(
    Effect.flatMap(
      Option.match({
        onNone: () => Effect.die(`no outbox row for ${recommendationId}`),
        onSome: (writeBack): Effect.Effect<WriteBack> => Effect.succeed(writeBack)
      })
    )
  )

/** The recommendation as stored now. */
export const recommendationOf = (workspaceId: WorkspaceId, recommendationId: RecommendationIdType) =>
  RecommendationRepository.use((repository) => repository.get(workspaceId, recommendationId)).pipe(
    Effect.flatMap(
      Option.match({
        onNone: () => Effect.die(`no recommendation ${recommendationId}`),
        onSome: (recommendation): Effect.Effect<Recommendation> => Effect.succeed(recommendation)
      })
    )
  )

/** The actor of approvals made by the tests themselves. */
export const testApprover: Actor = { _tag: "SystemActor", name: "fault-test" }

/**
 * Approves in the test process through the use case (the approve transaction: compare-and-swap,
 * outbox row, audit) without delivering: the write-back waits in the outbox for a worker.
 */
export const approveWithoutDelivery = (workspaceId: WorkspaceId, recommendationId: RecommendationIdType) =>
  Recommendations.use((recommendations) =>
    recommendations.approve(workspaceId, recommendationId, testApprover, "approver")
  ).pipe(Effect.orDie)

/** The kinds of the open alerts of the workspace. */
export const openAlertKinds = (workspaceId: WorkspaceId) =>
  Alerts.use((alerts) =>
    alerts.list(workspaceId, { status: "open", kind: null, itemId: null }, { limit: 200, cursor: null })
  ).pipe(Effect.map((page) => page.items.map((alert) => alert.kind)))
