import { storeSyncStateRepositoryContract } from "@margin/core/testing/StoreSyncStateRepositoryContract"
import * as PgTestAdapters from "./testing/PgTestAdapters.ts"

storeSyncStateRepositoryContract(PgTestAdapters.backend, PgTestAdapters.layer)
