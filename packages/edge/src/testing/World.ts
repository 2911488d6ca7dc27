import type { ApiToken } from "@margin/core/access/ApiToken"
import { MembershipRepository } from "@margin/core/access/MembershipRepository"
import type { Role } from "@margin/core/access/Role"
import { type Scope, scopes } from "@margin/core/access/Scope"
import { TokenRepository } from "@margin/core/access/TokenRepository"
import type { User } from "@margin/core/access/User"
import type { Alert } from "@margin/core/alerts/Alert"
import { AlertRepository } from "@margin/core/alerts/AlertRepository"
import type { CatalogItem, CatalogItemInput } from "@margin/core/catalog/CatalogItem"
import { CatalogRepository } from "@margin/core/catalog/CatalogRepository"
import {
  AlertId,
  CatalogItemId,
  DeletionRequestId,
  RecommendationId,
  RunId,
  SupportSessionId,
  TokenId
} from "@margin/core/kernel/Ids"
import { MemoryDatabase } from "@margin/core/memory/MemoryDatabase"
import { MemoryStore } from "@margin/core/memory/MemoryStore"
import type { Recommendation } from "@margin/core/recommendations/Recommendation"
import { RecommendationRepository } from "@margin/core/recommendations/RecommendationRepository"
import type { Run } from "@margin/core/runs/Run"
import { RunRepository } from "@margin/core/runs/RunRepository"
import { StoreConnectionRepository } from "@margin/core/stores/StoreConnectionRepository"
import {
  aCatalogItem,
  aCatalogItemInput,
  aDeletionRequest,
  anAlert,
  anApiToken,
  aRecommendation,
  aRun,
  aStoreConnection,
  aSupportSession
} from "@margin/core/testing/Fixtures"
import { freshId, itemBySku, seedUser, seedWorkspace } from "@margin/core/testing/Seed"
import { DeletionRequestRepository } from "@margin/core/workspaces/DeletionRequestRepository"
import type { Plan } from "@margin/core/workspaces/Plan"
import { SupportSessionRepository } from "@margin/core/workspaces/SupportSessionRepository"
import type { Workspace } from "@margin/core/workspaces/Workspace"
import { Clock, Effect, HashMap } from "effect"
import { SessionSigner } from "../auth/SessionJwtSigner.ts"
import { generateTokenSecret, hashTokenSecret } from "../auth/TokenSecret.ts"

/**
 * Seeds for the front-door tests (REST and MCP). Every call makes fresh ids, so tests sharing one server never see
 * each other's rows (nor share a rate budget).
 */

/** Issues a token with `scopes` (all by default) to `user` for `workspace`; answers the secret. */
export const issueToken = Effect.fnUntraced(function* (
  workspace: Workspace,
  user: User,
  options: { readonly scopes?: ReadonlyArray<Scope>; readonly overrides?: Partial<ApiToken> } = {}
) {
  const now = yield* Clock.currentTimeMillis
  const secret = generateTokenSecret()
  const token = anApiToken({
    id: yield* freshId("token", TokenId.make),
    workspaceId: workspace.id,
    issuedBy: user.id,
    scopes: [...(options.scopes ?? scopes)],
    createdAt: now,
    ...options.overrides
  })
  yield* TokenRepository.use((tokens) => tokens.insert(token, hashTokenSecret(secret)))
  return { token, secret }
})

export const addMember = (workspace: Workspace, user: User, role: Role) =>
  MembershipRepository.use((memberships) => memberships.upsert({ workspaceId: workspace.id, userId: user.id, role }))

/** A confirmed user who is a member of `workspace` with `role`, and a token of theirs with every scope. */
export const member = Effect.fnUntraced(function* (
  workspace: Workspace,
  role: Role,
  userOverrides: Partial<User> = {}
) {
  const user = yield* seedUser(userOverrides)
  yield* addMember(workspace, user, role)
  const { secret } = yield* issueToken(workspace, user)
  return { user, token: secret }
})

export const session = (user: User, expiresInSeconds = 600) =>
  SessionSigner.use((signer) => signer.sign(user.id, expiresInSeconds))

export const connectStore = (workspace: Workspace) =>
  Effect.flatMap(Clock.currentTimeMillis, (now) =>
    StoreConnectionRepository.use((stores) =>
      stores.connect(aStoreConnection({ workspaceId: workspace.id, connectedAt: now }), null)
    )
  )

/** A workspace on `plan` with a connected sandbox store (unless `store: false`), and its owner. */
export const aWorkspaceWithOwner = Effect.fnUntraced(function* (
  options: { readonly plan?: Plan; readonly store?: boolean } = {}
) {
  const now = yield* Clock.currentTimeMillis
  const workspace = yield* seedWorkspace({ plan: options.plan ?? "max", createdAt: now })
  if (options.store ?? true) yield* connectStore(workspace)
  const owner = yield* member(workspace, "owner")
  return { workspace, owner }
})

/** A catalog item whose store variant sells at the catalog price, so a write-back can apply. */
export const seedItem = Effect.fnUntraced(function* (workspace: Workspace, overrides: Partial<CatalogItem> = {}) {
  const now = yield* Clock.currentTimeMillis
  const id = yield* freshId("catalogItem", CatalogItemId.make)
  const item = aCatalogItem({
    id,
    workspaceId: workspace.id,
    sku: `SKU-${id}`,
    storeProductRef: `prod-${id}`,
    storeVariantRef: `var-${id}`,
    createdAt: now,
    updatedAt: now,
    ...overrides
  })
  yield* MemoryDatabase.use((db) =>
    db.update((tables) => ({ ...tables, catalogItems: HashMap.set(tables.catalogItems, item.id, item) }))
  )
  if (item.storeVariantRef !== null) {
    const variant = item.storeVariantRef
    yield* MemoryStore.use((store) => store.setPrice(workspace.id, variant, item.price))
  }
  return item
})

/** A catalog item imported through the port, as the CLI does: works on every adapter, has no store variant. */
export const importItem = Effect.fnUntraced(function* (
  workspace: Workspace,
  overrides: Partial<CatalogItemInput> = {}
) {
  const now = yield* Clock.currentTimeMillis
  const sku = overrides.sku ?? `SKU-${yield* freshId("catalogItem", String)}`
  yield* CatalogRepository.use((catalog) =>
    catalog.upsertMany(workspace.id, [aCatalogItemInput({ ...overrides, sku })], now)
  )
  return yield* itemBySku(workspace.id, sku)
})

/**
 * A run of the workspace's history: finished by default, since a queued one would be claimed and
 * executed by the test server's run worker while the test looks at it.
 */
export const seedRun = Effect.fnUntraced(function* (workspace: Workspace, overrides: Partial<Run> = {}) {
  const now = yield* Clock.currentTimeMillis
  const run = aRun({
    id: yield* freshId("run", RunId.make),
    workspaceId: workspace.id,
    status: "succeeded",
    createdAt: now,
    startedAt: now,
    finishedAt: now,
    ...overrides
  })
  yield* RunRepository.use((runs) => runs.insert(run))
  return run
})

/** A recommendation of a finished run for `item`, on any adapter. */
export const recommendationFor = Effect.fnUntraced(function* (
  workspace: Workspace,
  item: CatalogItem,
  overrides: Partial<Recommendation> = {}
) {
  const now = yield* Clock.currentTimeMillis
  const run = yield* seedRun(workspace, { status: "succeeded" })
  const recommendation = aRecommendation({
    id: yield* freshId("recommendation", RecommendationId.make),
    workspaceId: workspace.id,
    runId: run.id,
    itemId: item.id,
    sku: item.sku,
    currency: item.currency,
    currentPrice: item.price,
    createdAt: now,
    updatedAt: now,
    ...overrides
  })
  yield* RecommendationRepository.use((recommendations) => recommendations.insertMany([recommendation]))
  return recommendation
})

/** In memory: a recommendation for a fresh sellable item of `workspace` (so approve can write it back). */
export const seedRecommendation = Effect.fnUntraced(function* (
  workspace: Workspace,
  overrides: Partial<Recommendation> = {}
) {
  return yield* recommendationFor(workspace, yield* seedItem(workspace), overrides)
})

export const seedAlert = Effect.fnUntraced(function* (workspace: Workspace, overrides: Partial<Alert> = {}) {
  const now = yield* Clock.currentTimeMillis
  const alert = anAlert({
    id: yield* freshId("alert", AlertId.make),
    workspaceId: workspace.id,
    runId: null,
    itemId: null,
    createdAt: now,
    updatedAt: now,
    ...overrides
  })
  yield* AlertRepository.use((alerts) => alerts.raiseMany([alert]))
  return alert
})

export const openSupportSession = Effect.fnUntraced(function* (workspace: Workspace, adminEmail: string) {
  const now = yield* Clock.currentTimeMillis
  const support = aSupportSession({
    id: yield* freshId("supportSession", SupportSessionId.make),
    workspaceId: workspace.id,
    adminEmail,
    startedAt: now - 60_000,
    expiresAt: now + 3_600_000
  })
  yield* SupportSessionRepository.use((sessions) => sessions.open(support))
  return support
})

export const requestDeletion = Effect.fnUntraced(function* (user: User, state: "pending" | "blocked" = "pending") {
  const now = yield* Clock.currentTimeMillis
  const request = aDeletionRequest({
    id: yield* freshId("deletionRequest", DeletionRequestId.make),
    userId: user.id,
    state,
    scheduledAt: now,
    effectiveAt: now + 30 * 86_400_000
  })
  yield* DeletionRequestRepository.use((deletions) => deletions.insert(request))
  return request
})
