import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"
import { syncScheduleRepositoryContract } from "../testing/SyncScheduleRepositoryContract.ts"

syncScheduleRepositoryContract("memory", MemoryAdapters.layer)
