import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"
import { storeConnectionRepositoryContract } from "../testing/StoreConnectionRepositoryContract.ts"

storeConnectionRepositoryContract("memory", MemoryAdapters.layer)
