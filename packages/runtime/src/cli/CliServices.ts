import { Accounts } from "@margin/core/access/Accounts"
import { Members } from "@margin/core/access/Members"
import { OperatorTokens } from "@margin/core/access/OperatorTokens"
import { AuditTrail } from "@margin/core/audit/AuditTrail"
import { CatalogImports } from "@margin/core/catalog/CatalogImports"
import { GrantRevocation } from "@margin/core/oauth/GrantRevocation"
import { RunExecutor } from "@margin/core/runs/RunExecutor"
import { Runs } from "@margin/core/runs/Runs"
import { StoreConnections } from "@margin/core/stores/StoreConnections"
import { StoreSyncs } from "@margin/core/stores/StoreSyncs"
import { AccountDeletions } from "@margin/core/workspaces/AccountDeletions"
import { PricingPolicySettings } from "@margin/core/workspaces/PricingPolicySettings"
import { SupportSessions } from "@margin/core/workspaces/SupportSessions"
import { WorkspaceAdministration } from "@margin/core/workspaces/WorkspaceAdministration"
import { WriteBackCancellation } from "@margin/core/writeback/WriteBackCancellation"
import { NodeTokenSecrets } from "@margin/edge/auth"
import { Migrations, PgAdapters, PgIdentityKeyStore } from "@margin/postgres"
import { StoreCatalogRouter } from "@margin/stores"
import { Layer } from "effect"

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
  StoreConnections.layer,
  GrantRevocation.layer,
  CatalogImports.layer,
  WriteBackCancellation.layer,
  StoreSyncs.layer.pipe(Layer.provide([AuditTrail.layer, StoreCatalogRouter.layerLive]))
).pipe(Layer.provideMerge(Layer.mergeAll(PgAdapters.layer, PgIdentityKeyStore.layer)), Layer.provide(Migrations.layer))
