import { runRepositoryContract } from "../testing/RunRepositoryContract.ts"
import * as MemoryAdapters from "./MemoryAdapters.ts"

runRepositoryContract("memory", MemoryAdapters.layer)
