import { storeConnectionRepositoryContract } from "../../testing/StoreConnectionRepositoryContract.ts"
import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"

storeConnectionRepositoryContract("memory", MemoryAdapters.layer)
