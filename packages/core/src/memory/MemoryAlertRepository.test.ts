import { alertRepositoryContract } from "../testing/AlertRepositoryContract.ts"
import * as MemoryAdapters from "./MemoryAdapters.ts"

alertRepositoryContract("memory", MemoryAdapters.layer)
