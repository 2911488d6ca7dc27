import { storeConnectionRepositoryContract } from "../testing/StoreConnectionRepositoryContract.ts"
import * as MemoryAdapters from "./MemoryAdapters.ts"

storeConnectionRepositoryContract("memory", MemoryAdapters.layer)
