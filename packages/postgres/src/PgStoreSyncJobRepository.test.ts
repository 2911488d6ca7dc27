import { storeSyncJobRepositoryContract } from "@margin/core/testing/StoreSyncJobRepositoryContract"
import * as PgTestAdapters from "./testing/PgTestAdapters.ts"

storeSyncJobRepositoryContract(PgTestAdapters.backend, PgTestAdapters.layer)
