import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"
import { storeSalesRepositoryContract } from "../testing/StoreSalesRepositoryContract.ts"

storeSalesRepositoryContract("memory", MemoryAdapters.layer)
