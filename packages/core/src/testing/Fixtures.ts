/**
 * Builders of every entity with sensible, mutually consistent defaults, for tests:
 * `aRecommendation({ status: "pending_approval" })`. The defaults describe one workspace on the
 * `max` plan with one item, one run, one recommendation for that item and so on, all at
 * `fixtureNow`; override what the test is about and nothing else.
 */

import type { ApiToken } from "../access/ApiToken.ts"
import type { Membership } from "../access/Membership.ts"
import { scopes } from "../access/Scope.ts"
import type { User } from "../access/User.ts"
import type { Alert } from "../alerts/Alert.ts"
import type { AuditEvent } from "../audit/AuditEvent.ts"
import type { CatalogItem, CatalogItemInput } from "../catalog/CatalogItem.ts"
import {
  AlertId,
  AuditEventId,
  CatalogItemId,
  DeletionRequestId,
  RecommendationId,
  RunId,
  SupportSessionId,
  TokenId,
  UserId,
  WorkspaceId,
  WriteBackId
} from "../kernel/Ids.ts"
import { CurrencyCode } from "../kernel/Money.ts"
import { defaultPricingPolicy } from "../pricing/PricingPolicy.ts"
import type { Recommendation } from "../recommendations/Recommendation.ts"
import type { Run } from "../runs/Run.ts"
import type { StoreConnection } from "../stores/StoreConnection.ts"
import type { DeletionRequest } from "../workspaces/DeletionRequest.ts"
import type { SupportSession } from "../workspaces/SupportSession.ts"
import type { Workspace } from "../workspaces/Workspace.ts"
import type { WriteBack, WriteBackPayload } from "../writeback/WriteBack.ts"

/** 2025-01-15T12:00:00Z: the instant every default happens at. */
export const fixtureNow = 1_736_942_400_000
export const minuteMs = 60_000
export const hourMs = 60 * minuteMs
export const dayMs = 24 * hourMs

export const usd = CurrencyCode.make("USD")

/** The ids the defaults point at one another with. */
export const fixtureIds = {
  workspace: WorkspaceId.make("ws_fixture"),
  user: UserId.make("usr_fixture"),
  token: TokenId.make("tok_fixture"),
  item: CatalogItemId.make("itm_fixture"),
  run: RunId.make("run_fixture"),
  recommendation: RecommendationId.make("rec_fixture"),
  alert: AlertId.make("alt_fixture"),
  writeBack: WriteBackId.make("wb_fixture"),
  auditEvent: AuditEventId.make("aud_fixture"),
  supportSession: SupportSessionId.make("sup_fixture"),
  deletionRequest: DeletionRequestId.make("del_fixture")
} as const

export const aWorkspace = (overrides: Partial<Workspace> = {}): Workspace => ({
  id: fixtureIds.workspace,
  name: "Fixture Goods",
  plan: "max",
  lifecycleState: "active",
  pricingPolicy: defaultPricingPolicy,
  trialEndsAt: null,
  createdAt: fixtureNow,
  ...overrides
})

export const aUser = (overrides: Partial<User> = {}): User => ({
  id: fixtureIds.user,
  email: "ada@fixture.example",
  emailConfirmed: true,
  deletedAt: null,
  createdAt: fixtureNow,
  ...overrides
})

export const aMembership = (overrides: Partial<Membership> = {}): Membership => ({
  workspaceId: fixtureIds.workspace,
  userId: fixtureIds.user,
  role: "owner",
  ...overrides
})

/** A usable token with every scope. */
export const anApiToken = (overrides: Partial<ApiToken> = {}): ApiToken => ({
  id: fixtureIds.token,
  workspaceId: fixtureIds.workspace,
  issuedBy: fixtureIds.user,
  name: "fixture token",
  scopes: [...scopes],
  createdAt: fixtureNow,
  expiresAt: null,
  revokedAt: null,
  lastUsedAt: null,
  ...overrides
})

export const aStoreConnection = (overrides: Partial<StoreConnection> = {}): StoreConnection => ({
  workspaceId: fixtureIds.workspace,
  platform: "sandbox",
  shop: null,
  status: "connected",
  connectedAt: fixtureNow,
  ...overrides
})

/** What an import supplies: $10.00 with a $7.00 cost (30 % margin, below the default 35 % target). */
export const aCatalogItemInput = (overrides: Partial<CatalogItemInput> = {}): CatalogItemInput => ({
  sku: "SKU-001",
  title: "Fixture mug",
  tags: ["kitchen"],
  currency: usd,
  price: 1000,
  cost: 700,
  compareAtPrice: null,
  minPrice: null,
  maxPrice: null,
  inventory: 40,
  unitsSold30d: 30,
  ...overrides
})

export const aCatalogItem = (overrides: Partial<CatalogItem> = {}): CatalogItem => ({
  ...aCatalogItemInput(),
  id: fixtureIds.item,
  workspaceId: fixtureIds.workspace,
  storeProductRef: "product-001",
  storeVariantRef: "variant-001",
  analysedCost: null,
  unitsCountedAt: null,
  priceHistory: [],
  competitorPrice: null,
  priceSetAt: fixtureNow,
  writtenBackFrom: null,
  createdAt: fixtureNow,
  updatedAt: fixtureNow,
  ...overrides
})

export const aRun = (overrides: Partial<Run> = {}): Run => ({
  id: fixtureIds.run,
  workspaceId: fixtureIds.workspace,
  status: "queued",
  subsetTags: [],
  trigger: "api",
  requestedBy: `token:${fixtureIds.token}`,
  itemsTotal: null,
  itemsAnalysed: 0,
  recommendationsCount: 0,
  alertsCount: 0,
  error: null,
  version: 0,
  createdAt: fixtureNow,
  startedAt: null,
  finishedAt: null,
  ...overrides
})

/** A `new` recommendation for the default item: $10.00 -> $10.99, toward the target margin. */
export const aRecommendation = (overrides: Partial<Recommendation> = {}): Recommendation => ({
  id: fixtureIds.recommendation,
  workspaceId: fixtureIds.workspace,
  runId: fixtureIds.run,
  itemId: fixtureIds.item,
  sku: "SKU-001",
  currency: usd,
  currentPrice: 1000,
  recommendedPrice: 1099,
  currentMargin: 0.3,
  projectedMargin: 0.3631,
  rule: "below_target_margin",
  explanation: "The margin of 30.0 % is below the target of 35.0 %: 10.00 USD -> 10.99 USD.",
  elasticity: 0,
  elasticitySource: "prior",
  elasticityInterval: [0, 0],
  elasticitySampleSize: 0,
  expectedMonthlyImpact: 2970,
  status: "new",
  acceptedAt: null,
  acceptedBy: null,
  approvedAt: null,
  decidedBy: null,
  decidedAt: null,
  rejectReason: null,
  dismissedAt: null,
  basis: null,
  supersededBy: null,
  supersededReason: null,
  version: 0,
  createdAt: fixtureNow,
  updatedAt: fixtureNow,
  ...overrides
})

/** An open alert about the default item. */
export const anAlert = (overrides: Partial<Alert> = {}): Alert => ({
  id: fixtureIds.alert,
  workspaceId: fixtureIds.workspace,
  runId: fixtureIds.run,
  itemId: fixtureIds.item,
  kind: "below_floor",
  severity: "warning",
  message: "SKU-001 sells below the floor of the minimum margin.",
  status: "open",
  snoozedUntil: null,
  snoozeReason: null,
  resolvedAt: null,
  dismissedAt: null,
  version: 0,
  createdAt: fixtureNow,
  updatedAt: fixtureNow,
  ...overrides
})

export const anAuditEvent = (overrides: Partial<AuditEvent> = {}): AuditEvent => ({
  id: fixtureIds.auditEvent,
  workspaceId: fixtureIds.workspace,
  actor: `token:${fixtureIds.token}`,
  action: "recommendation.accept",
  resourceType: "recommendation",
  resourceId: fixtureIds.recommendation,
  beforeStatus: "new",
  afterStatus: "pending_approval",
  at: fixtureNow,
  ...overrides
})

/** What the default recommendation asks the store: variant-001 from $10.00 to $10.99. */
export const aWriteBackPayload = (overrides: Partial<WriteBackPayload> = {}): WriteBackPayload => ({
  itemId: fixtureIds.item,
  sku: "SKU-001",
  storeProductRef: "product-001",
  storeVariantRef: "variant-001",
  currency: usd,
  oldPrice: 1000,
  newPrice: 1099,
  ...overrides
})

/** The pending, due outbox row of the default recommendation's approval. */
export const aWriteBack = (overrides: Partial<WriteBack> = {}): WriteBack => ({
  id: fixtureIds.writeBack,
  workspaceId: fixtureIds.workspace,
  recommendationId: fixtureIds.recommendation,
  idempotencyKey: fixtureIds.recommendation,
  payload: aWriteBackPayload(),
  status: "pending",
  attempts: 0,
  nextAttemptAt: fixtureNow,
  lastError: null,
  appliedAt: null,
  createdAt: fixtureNow,
  ...overrides
})

/** A support session open for one hour from `fixtureNow`. */
export const aSupportSession = (overrides: Partial<SupportSession> = {}): SupportSession => ({
  id: fixtureIds.supportSession,
  workspaceId: fixtureIds.workspace,
  adminEmail: "support@margin.example",
  startedAt: fixtureNow,
  expiresAt: fixtureNow + hourMs,
  closedAt: null,
  ...overrides
})

/** A pending deletion that may be purged 30 days after `fixtureNow`. */
export const aDeletionRequest = (overrides: Partial<DeletionRequest> = {}): DeletionRequest => ({
  id: fixtureIds.deletionRequest,
  userId: fixtureIds.user,
  state: "pending",
  scheduledAt: fixtureNow,
  effectiveAt: fixtureNow + 30 * dayMs,
  ...overrides
})
