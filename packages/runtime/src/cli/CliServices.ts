import { Accounts } from "@margin/core/access/Accounts"
import { Members } from "@margin/core/access/Members"
import { OperatorTokens } from "@margin/core/access/OperatorTokens"
import { AuditTrail } from "@margin/core/audit/AuditTrail"
import { CatalogImports } from "@margin/core/catalog/CatalogImports"
import { GrantRevocation } from "@margin/core/oauth/GrantRevocation"
import { RunExecutor } from "@margin/core/runs/RunExecutor"
import { Runs } from "@margin/core/runs/Runs"
import { AccountDeletions } from "@margin/core/workspaces/AccountDeletions"
import { PricingPolicySettings } from "@margin/core/workspaces/PricingPolicySettings"
import { SupportSessions } from "@margin/core/workspaces/SupportSessions"
import { WorkspaceAdministration } from "@margin/core/workspaces/WorkspaceAdministration"
import { WriteBackCancellation } from "@margin/core/writeback/WriteBackCancellation"
import { NodeTokenSecrets } from "@margin/edge/auth"
import { Migrations, PgAdapters, PgIdentityKeyStore } from "@margin/postgres"
import { StoreCatalogRouter, StoreConnectionChecks } from "@margin/stores"
import { Layer } from "effect"
import * as StoreSyncUseCases from "../infrastructure/StoreSyncUseCases.ts"

/**
 * What the commands use: every port on the database of the process (Database.layer, provided
 * by the caller), the use cases over them (every audited write of marginctl is one of theirs),
 * and the identity key store. The schema is migrated before any of it is used.
 */
export const layer = Layer.mergeAll(
  AuditTrail.layer,
  Runs.layer,
  RunExecutor.layer,
  Members.layer,
  PricingPolicySettings.layer,
  Accounts.layer,
  // Token secrets on Node's crypto, as the servers check them.
  OperatorTokens.layer.pipe(Layer.provide(NodeTokenSecrets.layer)),
  WorkspaceAdministration.layer,
  SupportSessions.layer,
  AccountDeletions.layer,
  GrantRevocation.layer,
  CatalogImports.layer,
  WriteBackCancellation.layer,
  StoreSyncUseCases.layer.pipe(Layer.provide([StoreCatalogRouter.layerLive, StoreConnectionChecks.layerLive]))
).pipe(Layer.provideMerge(Layer.mergeAll(PgAdapters.layer, PgIdentityKeyStore.layer)), Layer.provide(Migrations.layer))
