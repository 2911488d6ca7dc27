import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"
import { runRepositoryContract } from "../testing/RunRepositoryContract.ts"

runRepositoryContract("memory", MemoryAdapters.layer)
