import { alertRepositoryContract } from "../../testing/AlertRepositoryContract.ts"
import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"

alertRepositoryContract("memory", MemoryAdapters.layer)
