import { tokenRepositoryContract } from "@margin/core/testing/TokenRepositoryContract"
import * as PgTestAdapters from "./testing/PgTestAdapters.ts"

tokenRepositoryContract(PgTestAdapters.backend, PgTestAdapters.layer)
