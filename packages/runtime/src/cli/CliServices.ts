import { Members } from "@margin/core/access/Members"
import { AuditTrail } from "@margin/core/audit/AuditTrail"
import { CatalogImports } from "@margin/core/catalog/CatalogImports"
import { RunExecutor } from "@margin/core/runs/RunExecutor"
import { Runs } from "@margin/core/runs/Runs"
import { StoreSyncs } from "@margin/core/stores/StoreSyncs"
import { PricingPolicySettings } from "@margin/core/workspaces/PricingPolicySettings"
import { WriteBackCancellation } from "@margin/core/writeback/WriteBackCancellation"
import { Migrations, PgAdapters, PgIdentityKeyStore } from "@margin/postgres"
import { StoreCatalogRouter } from "@margin/stores"
import { Layer } from "effect"

/**
 * What the commands use: every port on the database of the process (Database.layer, provided
 * by the caller), the use cases over them, and the identity key store. The schema is migrated
 * before any of it is used.
 */
export const layer = Layer.mergeAll(
  AuditTrail.layer,
  Runs.layer,
  RunExecutor.layer,
  Members.layer,
  PricingPolicySettings.layer,
  CatalogImports.layer,
  WriteBackCancellation.layer,
  StoreSyncs.layer.pipe(Layer.provide([AuditTrail.layer, StoreCatalogRouter.layerLive]))
).pipe(Layer.provideMerge(Layer.mergeAll(PgAdapters.layer, PgIdentityKeyStore.layer)), Layer.provide(Migrations.layer))
