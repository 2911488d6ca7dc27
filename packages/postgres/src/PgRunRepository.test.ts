import { runRepositoryContract } from "@margin/core/testing/RunRepositoryContract"
import * as PgTestAdapters from "./testing/PgTestAdapters.ts"

runRepositoryContract(PgTestAdapters.backend, PgTestAdapters.layer)
