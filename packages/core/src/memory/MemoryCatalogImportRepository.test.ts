import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"
import { catalogImportRepositoryContract } from "../testing/CatalogImportRepositoryContract.ts"

catalogImportRepositoryContract("memory", MemoryAdapters.layer)
