import { transactorContract } from "../../testing/TransactorContract.ts"
import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"

transactorContract("memory", MemoryAdapters.layer)
