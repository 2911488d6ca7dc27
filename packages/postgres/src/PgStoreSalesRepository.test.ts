import { storeSalesRepositoryContract } from "@margin/core/testing/StoreSalesRepositoryContract"
import * as PgTestAdapters from "./testing/PgTestAdapters.ts"

storeSalesRepositoryContract(PgTestAdapters.backend, PgTestAdapters.layer)
