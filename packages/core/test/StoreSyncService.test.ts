import { Layer } from "effect"
import { AuditTrail } from "../src/AuditTrail.ts"
import * as MemoryAdapters from "../src/memory/MemoryAdapters.ts"
import { defaultStoreSyncOptions, StoreSyncs } from "../src/StoreSyncService.ts"
import { ScriptedStoreCatalog } from "../testing/ScriptedStoreCatalog.ts"
import { storeSyncSuite } from "../testing/StoreSyncSuite.ts"

// Small batches: a shop of some hundreds of variants crosses batch boundaries.
storeSyncSuite(
  "memory",
  StoreSyncs.layerWith({ ...defaultStoreSyncOptions, batchSize: 64 }).pipe(
    Layer.provide(AuditTrail.layer),
    Layer.provideMerge(ScriptedStoreCatalog.layer),
    Layer.provideMerge(MemoryAdapters.layer)
  )
)
