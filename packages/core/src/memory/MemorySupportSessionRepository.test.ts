import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"
import { supportSessionRepositoryContract } from "../testing/SupportSessionRepositoryContract.ts"

supportSessionRepositoryContract("memory", MemoryAdapters.layer)
