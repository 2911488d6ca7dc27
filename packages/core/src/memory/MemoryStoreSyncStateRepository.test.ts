import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"
import { storeSyncStateRepositoryContract } from "../testing/StoreSyncStateRepositoryContract.ts"

storeSyncStateRepositoryContract("memory", MemoryAdapters.layer)
