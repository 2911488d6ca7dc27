import { auditRepositoryContract } from "../../testing/AuditRepositoryContract.ts"
import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"

auditRepositoryContract("memory", MemoryAdapters.layer)
