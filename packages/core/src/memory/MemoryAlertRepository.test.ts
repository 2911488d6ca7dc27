import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"
import { alertRepositoryContract } from "../testing/AlertRepositoryContract.ts"

alertRepositoryContract("memory", MemoryAdapters.layer)
