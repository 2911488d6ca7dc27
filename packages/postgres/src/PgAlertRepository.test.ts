import { alertRepositoryContract } from "@margin/core/testing/AlertRepositoryContract"
import * as PgTestAdapters from "./testing/PgTestAdapters.ts"

alertRepositoryContract(PgTestAdapters.backend, PgTestAdapters.layer)
