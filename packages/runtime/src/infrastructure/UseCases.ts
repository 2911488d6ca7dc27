import { AgentAccess } from "@margin/core/access/AgentAccess"
import { ApiKeys } from "@margin/core/access/ApiKeys"
import { WorkspaceAccess } from "@margin/core/access/WorkspaceAccess"
import { Alerts } from "@margin/core/alerts/Alerts"
import { Catalog } from "@margin/core/catalog/Catalog"
import { CatalogImports } from "@margin/core/catalog/CatalogImports"
import { ItemOverviews } from "@margin/core/catalog/ItemOverviews"
import { ConnectedApps } from "@margin/core/oauth/ConnectedApps"
import { OAuthServer } from "@margin/core/oauth/OAuthServer"
import { SignIn } from "@margin/core/oauth/SignIn"
import { Approval } from "@margin/core/recommendations/Approval"
import { RecommendationReviews } from "@margin/core/recommendations/RecommendationReviews"
import { Recommendations } from "@margin/core/recommendations/Recommendations"
import { ReportExport } from "@margin/core/recommendations/ReportExport"
import { RunExecutor } from "@margin/core/runs/RunExecutor"
import { Runs } from "@margin/core/runs/Runs"
import { PricingPolicySettings } from "@margin/core/workspaces/PricingPolicySettings"
import { WorkspaceStatus } from "@margin/core/workspaces/WorkspaceStatus"
import { PriceChanges } from "@margin/core/writeback/PriceChanges"
import { Authenticate, NodeClientMetadataDocuments, NodeOAuthSecrets, NodeTokenSecrets } from "@margin/edge/auth"
import { DeliverySettings } from "@margin/jobs"
import { Layer } from "effect"
import * as StoreSyncUseCases from "./StoreSyncUseCases.ts"

/**
 * Every use case a front door calls, built on the ports (memory or PostgreSQL adapters) and a
 * `SessionVerifier`. REST and MCP build this same layer, so both doors run the same rules.
 */
export const CoreUseCasesLayer = Layer.mergeAll(
  Runs.layer,
  Recommendations.layer,
  Alerts.layer,
  Catalog.layer,
  CatalogImports.layer,
  ReportExport.layer,
  WorkspaceStatus.layer,
  AgentAccess.layer,
  WorkspaceAccess.layer,
  // API keys as the console's settings manage them; their secrets on Node's crypto.
  ApiKeys.layer.pipe(Layer.provide(NodeTokenSecrets.layer)),
  RunExecutor.layer,
  // The console's settings: connected apps (OAuth grants) and the pricing policy.
  ConnectedApps.layer,
  PricingPolicySettings.layer,
  // The MCP resource's OAuth authorization server; its secrets on Node's crypto, client
  // metadata documents fetched by Node behind the address policy.
  OAuthServer.layer.pipe(Layer.provide([NodeOAuthSecrets.layer, NodeClientMetadataDocuments.layer])),
  // Who may sign in to its pages and the console, and what the consent page offers.
  SignIn.layer,
  // The approve request's own delivery attempt honours the same WRITE_BACK_* settings as the workers.
  DeliverySettings.layer,
  // Syncs asked for (REST, MCP, the console) and the schedules; the jobs' loops execute them.
  StoreSyncUseCases.layer
)

export const UseCasesLayer = Layer.mergeAll(
  Approval.layer,
  PriceChanges.layer,
  Authenticate.layer,
  // The console's reads across one item and one review (each over the use cases and ports below).
  ItemOverviews.layer,
  RecommendationReviews.layer
).pipe(Layer.provideMerge(CoreUseCasesLayer))

export type UseCases = Layer.Success<typeof UseCasesLayer>
