import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"
import { tokenRepositoryContract } from "../testing/TokenRepositoryContract.ts"

tokenRepositoryContract("memory", MemoryAdapters.layer)
