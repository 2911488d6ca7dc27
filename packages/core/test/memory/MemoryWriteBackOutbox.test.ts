import { writeBackOutboxContract } from "../../testing/WriteBackOutboxContract.ts"
import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"

writeBackOutboxContract("memory", MemoryAdapters.layer)
