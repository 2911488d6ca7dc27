import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"
import { storeSyncJobRepositoryContract } from "../testing/StoreSyncJobRepositoryContract.ts"

storeSyncJobRepositoryContract("memory", MemoryAdapters.layer)
