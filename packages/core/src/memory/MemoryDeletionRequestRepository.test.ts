import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"
import { deletionRequestRepositoryContract } from "../testing/DeletionRequestRepositoryContract.ts"

deletionRequestRepositoryContract("memory", MemoryAdapters.layer)
