import { catalogRepositoryContract } from "@margin/core/testing/CatalogRepositoryContract"
import * as PgTestAdapters from "./testing/PgTestAdapters.ts"

catalogRepositoryContract(PgTestAdapters.backend, PgTestAdapters.layer)
