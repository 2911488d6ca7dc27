import { Alerts } from "@margin/core/AlertsService"
import { Approval } from "@margin/core/Approval"
import { CatalogImports } from "@margin/core/CatalogImportService"
import { Catalog } from "@margin/core/CatalogService"
import { OAuthServer } from "@margin/core/OAuthServer"
import { Recommendations } from "@margin/core/RecommendationsService"
import { ReportExport } from "@margin/core/ReportExportService"
import { RunExecutor } from "@margin/core/RunExecutor"
import { Runs } from "@margin/core/RunsService"
import { WorkspaceStatus } from "@margin/core/WorkspaceStatusService"
import { Authenticate, NodeClientMetadataDocuments, NodeOAuthSecrets } from "@margin/edge/auth"
import { DeliverySettings } from "@margin/jobs"
import { Layer } from "effect"

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
  RunExecutor.layer,
  // The MCP resource's OAuth authorization server; its secrets on Node's crypto, client
  // metadata documents fetched by Node behind the address policy.
  OAuthServer.layer.pipe(Layer.provide([NodeOAuthSecrets.layer, NodeClientMetadataDocuments.layer])),
  // The approve request's own delivery attempt honours the same WRITE_BACK_* settings as the workers.
  DeliverySettings.layer
)

export const UseCasesLayer = Layer.mergeAll(Approval.layer, Authenticate.layer).pipe(
  Layer.provideMerge(CoreUseCasesLayer)
)

export type UseCases = Layer.Success<typeof UseCasesLayer>
