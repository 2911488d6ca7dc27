import { catalogImportRepositoryContract } from "@margin/core/testing/CatalogImportRepositoryContract"
import * as PgTestAdapters from "./testing/PgTestAdapters.ts"

catalogImportRepositoryContract(PgTestAdapters.backend, PgTestAdapters.layer)
