import { AuditTrail } from "@margin/core/AuditTrail"
import { StoreSyncs } from "@margin/core/StoreSyncService"
import { ScriptedStoreCatalog } from "@margin/core/testing/ScriptedStoreCatalog"
import { storeSyncSuite } from "@margin/core/testing/StoreSyncSuite"
import { Layer } from "effect"
import * as PgTestAdapters from "./testing/PgTestAdapters.ts"

// The use case over the PostgreSQL adapters: a read applied in one transaction with its state, on the database.
storeSyncSuite(
  PgTestAdapters.backend,
  StoreSyncs.layerWith({ batchSize: 64, overlapMillis: 5 * 60 * 1000 }).pipe(
    Layer.provide(AuditTrail.layer),
    Layer.provideMerge(ScriptedStoreCatalog.layer),
    Layer.provideMerge(PgTestAdapters.layer)
  )
)
