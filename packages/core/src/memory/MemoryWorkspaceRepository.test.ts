import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"
import { workspaceRepositoryContract } from "../testing/WorkspaceRepositoryContract.ts"

workspaceRepositoryContract("memory", MemoryAdapters.layer)
