import { writeBackOutboxContract } from "../testing/WriteBackOutboxContract.ts"
import * as MemoryAdapters from "./MemoryAdapters.ts"

writeBackOutboxContract("memory", MemoryAdapters.layer)
