import { auditRepositoryContract } from "@margin/core/testing/AuditRepositoryContract"
import * as PgTestAdapters from "./testing/PgTestAdapters.ts"

auditRepositoryContract(PgTestAdapters.backend, PgTestAdapters.layer)
