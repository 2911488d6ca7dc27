import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"
import { transactorContract } from "../testing/TransactorContract.ts"

transactorContract("memory", MemoryAdapters.layer)
