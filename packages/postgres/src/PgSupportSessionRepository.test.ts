import { supportSessionRepositoryContract } from "@margin/core/testing/SupportSessionRepositoryContract"
import * as PgTestAdapters from "./testing/PgTestAdapters.ts"

supportSessionRepositoryContract(PgTestAdapters.backend, PgTestAdapters.layer)
