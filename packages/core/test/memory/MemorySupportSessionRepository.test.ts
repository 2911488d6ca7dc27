import { supportSessionRepositoryContract } from "../../testing/SupportSessionRepositoryContract.ts"
import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"

supportSessionRepositoryContract("memory", MemoryAdapters.layer)
