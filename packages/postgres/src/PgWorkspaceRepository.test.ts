import { workspaceRepositoryContract } from "@margin/core/testing/WorkspaceRepositoryContract"
import * as PgTestAdapters from "./testing/PgTestAdapters.ts"

workspaceRepositoryContract(PgTestAdapters.backend, PgTestAdapters.layer)
