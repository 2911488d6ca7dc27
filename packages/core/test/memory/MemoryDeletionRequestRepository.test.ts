import { deletionRequestRepositoryContract } from "../../testing/DeletionRequestRepositoryContract.ts"
import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"

deletionRequestRepositoryContract("memory", MemoryAdapters.layer)
