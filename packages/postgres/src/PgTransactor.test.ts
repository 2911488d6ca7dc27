import { transactorContract } from "@margin/core/testing/TransactorContract"
import * as PgTestAdapters from "./testing/PgTestAdapters.ts"

transactorContract(PgTestAdapters.backend, PgTestAdapters.layer)
