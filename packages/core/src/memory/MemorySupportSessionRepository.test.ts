import { supportSessionRepositoryContract } from "../testing/SupportSessionRepositoryContract.ts"
import * as MemoryAdapters from "./MemoryAdapters.ts"

supportSessionRepositoryContract("memory", MemoryAdapters.layer)
