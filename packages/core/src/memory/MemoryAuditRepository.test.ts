import { auditRepositoryContract } from "../testing/AuditRepositoryContract.ts"
import * as MemoryAdapters from "./MemoryAdapters.ts"

auditRepositoryContract("memory", MemoryAdapters.layer)
