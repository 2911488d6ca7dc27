import { syncScheduleRepositoryContract } from "@margin/core/testing/SyncScheduleRepositoryContract"
import * as PgTestAdapters from "./testing/PgTestAdapters.ts"

syncScheduleRepositoryContract(PgTestAdapters.backend, PgTestAdapters.layer)
