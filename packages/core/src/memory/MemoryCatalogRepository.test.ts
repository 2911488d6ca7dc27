import { catalogRepositoryContract } from "../testing/CatalogRepositoryContract.ts"
import * as MemoryAdapters from "./MemoryAdapters.ts"

catalogRepositoryContract("memory", MemoryAdapters.layer)
