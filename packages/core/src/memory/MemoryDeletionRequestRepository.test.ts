import { deletionRequestRepositoryContract } from "../testing/DeletionRequestRepositoryContract.ts"
import * as MemoryAdapters from "./MemoryAdapters.ts"

deletionRequestRepositoryContract("memory", MemoryAdapters.layer)
