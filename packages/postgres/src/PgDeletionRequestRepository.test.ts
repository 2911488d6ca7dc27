import { deletionRequestRepositoryContract } from "@margin/core/testing/DeletionRequestRepositoryContract"
import * as PgTestAdapters from "./testing/PgTestAdapters.ts"

deletionRequestRepositoryContract(PgTestAdapters.backend, PgTestAdapters.layer)
