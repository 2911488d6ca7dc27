import { storeConnectionRepositoryContract } from "@margin/core/testing/StoreConnectionRepositoryContract"
import * as PgTestAdapters from "./testing/PgTestAdapters.ts"

storeConnectionRepositoryContract(PgTestAdapters.backend, PgTestAdapters.layer)
