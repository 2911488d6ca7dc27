import { workspaceRepositoryContract } from "../testing/WorkspaceRepositoryContract.ts"
import * as MemoryAdapters from "./MemoryAdapters.ts"

workspaceRepositoryContract("memory", MemoryAdapters.layer)
