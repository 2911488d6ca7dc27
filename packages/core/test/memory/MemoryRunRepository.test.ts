import { runRepositoryContract } from "../../testing/RunRepositoryContract.ts"
import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"

runRepositoryContract("memory", MemoryAdapters.layer)
