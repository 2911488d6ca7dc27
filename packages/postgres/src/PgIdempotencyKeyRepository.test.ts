import { idempotencyKeyRepositoryContract } from "@margin/core/testing/IdempotencyKeyRepositoryContract"
import * as PgTestAdapters from "./testing/PgTestAdapters.ts"

idempotencyKeyRepositoryContract(PgTestAdapters.backend, PgTestAdapters.layer)
