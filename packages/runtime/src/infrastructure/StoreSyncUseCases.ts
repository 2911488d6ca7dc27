import { AuditTrail } from "@margin/core/audit/AuditTrail"
import { Runs } from "@margin/core/runs/Runs"
import { SyncSchedules } from "@margin/core/schedules/SyncSchedules"
import { StoreConnections } from "@margin/core/stores/StoreConnections"
import { StoreSyncJobs } from "@margin/core/stores/StoreSyncJobs"
import { StoreSyncs } from "@margin/core/stores/StoreSyncs"
import * as IntlZoneRules from "@margin/edge/zones"
import { Layer } from "effect"

/**
 * The store's syncs as every process runs them: StoreSyncs, the syncs asked for and due
 * (StoreSyncJobs, with the run after them), and the schedules on the runtime's time zone database
 * (IntlZoneRules). Needs the ports and a StoreCatalogSource: the catalog router (sandbox, Shopify)
 * in the servers and marginctl, a scripted store in the test servers.
 */
export const layer = Layer.mergeAll(StoreSyncJobs.layer, SyncSchedules.layer, StoreConnections.layer).pipe(
  Layer.provideMerge(StoreSyncs.layer.pipe(Layer.provide(AuditTrail.layer))),
  Layer.provide([Runs.layer, IntlZoneRules.layer])
)
