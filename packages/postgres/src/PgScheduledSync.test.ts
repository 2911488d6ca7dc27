import { AuditTrail } from "@margin/core/audit/AuditTrail"
import { Runs } from "@margin/core/runs/Runs"
import { SyncSchedules } from "@margin/core/schedules/SyncSchedules"
import { ZoneRules } from "@margin/core/schedules/ZoneRules"
import { StoreSyncJobs } from "@margin/core/stores/StoreSyncJobs"
import { StoreSyncs } from "@margin/core/stores/StoreSyncs"
import { scheduledSyncSuite } from "@margin/core/testing/ScheduledSyncSuite"
import { ScriptedStoreCatalog } from "@margin/core/testing/ScriptedStoreCatalog"
import { tableZoneRules } from "@margin/core/testing/TableZones"
import { Layer } from "effect"
import * as PgTestAdapters from "./testing/PgTestAdapters.ts"

// On the database: a slot's unique key decides between concurrent schedulers, claims skip locked rows.
scheduledSyncSuite(
  PgTestAdapters.backend,
  Layer.mergeAll(StoreSyncJobs.layer, SyncSchedules.layer).pipe(
    Layer.provideMerge(Layer.mergeAll(StoreSyncs.layer.pipe(Layer.provide(AuditTrail.layer)), Runs.layer)),
    Layer.provideMerge(Layer.succeed(ZoneRules, ZoneRules.of(tableZoneRules()))),
    Layer.provideMerge(ScriptedStoreCatalog.layer),
    Layer.provideMerge(PgTestAdapters.layer)
  )
)
