import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"
import { writeBackOutboxContract } from "../testing/WriteBackOutboxContract.ts"

writeBackOutboxContract("memory", MemoryAdapters.layer)
