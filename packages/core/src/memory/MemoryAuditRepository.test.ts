import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"
import { auditRepositoryContract } from "../testing/AuditRepositoryContract.ts"

auditRepositoryContract("memory", MemoryAdapters.layer)
