import { Layer } from "effect"
import { AuditTrail } from "../audit/AuditTrail.ts"
import * as MemoryAdapters from "../memory/MemoryAdapters.ts"
import { ScriptedStoreCatalog } from "../testing/ScriptedStoreCatalog.ts"
import { storeSyncSuite } from "../testing/StoreSyncSuite.ts"
import { defaultStoreSyncOptions, StoreSyncs } from "./StoreSyncs.ts"

// Small batches: a shop of some hundreds of variants crosses batch boundaries.
storeSyncSuite(
  "memory",
  StoreSyncs.layerWith({ ...defaultStoreSyncOptions, batchSize: 64 }).pipe(
    Layer.provide(AuditTrail.layer),
    Layer.provideMerge(ScriptedStoreCatalog.layer),
    Layer.provideMerge(MemoryAdapters.layer)
  )
)
