import { workspaceRepositoryContract } from "../../testing/WorkspaceRepositoryContract.ts"
import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"

workspaceRepositoryContract("memory", MemoryAdapters.layer)
