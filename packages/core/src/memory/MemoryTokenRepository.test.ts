import { tokenRepositoryContract } from "../testing/TokenRepositoryContract.ts"
import * as MemoryAdapters from "./MemoryAdapters.ts"

tokenRepositoryContract("memory", MemoryAdapters.layer)
