import { writeBackOutboxContract } from "@margin/core/testing/WriteBackOutboxContract"
import * as PgTestAdapters from "./testing/PgTestAdapters.ts"

writeBackOutboxContract(PgTestAdapters.backend, PgTestAdapters.layer)
