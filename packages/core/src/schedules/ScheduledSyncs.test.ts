import { Layer } from "effect"
import { AuditTrail } from "../audit/AuditTrail.ts"
import * as MemoryAdapters from "../memory/MemoryAdapters.ts"
import { Runs } from "../runs/Runs.ts"
import { StoreSyncJobs } from "../stores/StoreSyncJobs.ts"
import { StoreSyncs } from "../stores/StoreSyncs.ts"
import { scheduledSyncSuite } from "../testing/ScheduledSyncSuite.ts"
import { ScriptedStoreCatalog } from "../testing/ScriptedStoreCatalog.ts"
import { tableZoneRules } from "../testing/TableZones.ts"
import { SyncSchedules } from "./SyncSchedules.ts"
import { ZoneRules } from "./ZoneRules.ts"

scheduledSyncSuite(
  "memory",
  Layer.mergeAll(StoreSyncJobs.layer, SyncSchedules.layer).pipe(
    Layer.provideMerge(Layer.mergeAll(StoreSyncs.layer.pipe(Layer.provide(AuditTrail.layer)), Runs.layer)),
    Layer.provideMerge(Layer.succeed(ZoneRules, ZoneRules.of(tableZoneRules()))),
    Layer.provideMerge(ScriptedStoreCatalog.layer),
    Layer.provideMerge(MemoryAdapters.layer)
  )
)
