import { Members } from "@margin/core/access/Members"
import { AuditTrail } from "@margin/core/audit/AuditTrail"
import { CatalogImports } from "@margin/core/catalog/CatalogImports"
import { RunExecutor } from "@margin/core/runs/RunExecutor"
import { Runs } from "@margin/core/runs/Runs"
import { WriteBackCancellation } from "@margin/core/writeback/WriteBackCancellation"
import { Migrations, PgAdapters, PgIdentityKeyStore } from "@margin/postgres"
import { StoreCatalogRouter, StoreConnectionChecks } from "@margin/stores"
import { Layer } from "effect"
import * as StoreSyncUseCases from "../infrastructure/StoreSyncUseCases.ts"

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
  CatalogImports.layer,
  WriteBackCancellation.layer,
  StoreSyncUseCases.layer.pipe(Layer.provide([StoreCatalogRouter.layerLive, StoreConnectionChecks.layerLive]))
).pipe(Layer.provideMerge(Layer.mergeAll(PgAdapters.layer, PgIdentityKeyStore.layer)), Layer.provide(Migrations.layer))
