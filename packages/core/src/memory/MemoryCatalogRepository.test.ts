import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"
import { catalogRepositoryContract } from "../testing/CatalogRepositoryContract.ts"

catalogRepositoryContract("memory", MemoryAdapters.layer)
