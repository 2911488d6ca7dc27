import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"
import { deprecationNoticeRepositoryContract } from "../testing/DeprecationNoticeRepositoryContract.ts"

deprecationNoticeRepositoryContract("memory", MemoryAdapters.layer)
