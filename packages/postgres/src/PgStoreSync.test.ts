import { AuditTrail } from "@margin/core/audit/AuditTrail"
import { defaultStoreSyncOptions, StoreSyncs } from "@margin/core/stores/StoreSyncs"
import { ScriptedStoreCatalog } from "@margin/core/testing/ScriptedStoreCatalog"
import { storeSyncSuite } from "@margin/core/testing/StoreSyncSuite"
import { Layer } from "effect"
import * as PgTestAdapters from "./testing/PgTestAdapters.ts"

// The use case over the PostgreSQL adapters: a read applied in one transaction with its state, on the database.
storeSyncSuite(
  PgTestAdapters.backend,
  StoreSyncs.layerWith({ ...defaultStoreSyncOptions, batchSize: 64 }).pipe(
    Layer.provide(AuditTrail.layer),
    Layer.provideMerge(ScriptedStoreCatalog.layer),
    Layer.provideMerge(PgTestAdapters.layer)
  )
)
