import { catalogRepositoryContract } from "../../testing/CatalogRepositoryContract.ts"
import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"

catalogRepositoryContract("memory", MemoryAdapters.layer)
