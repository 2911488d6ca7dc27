import { tokenRepositoryContract } from "../../testing/TokenRepositoryContract.ts"
import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"

tokenRepositoryContract("memory", MemoryAdapters.layer)
