import { transactorContract } from "../testing/TransactorContract.ts"
import * as MemoryAdapters from "./MemoryAdapters.ts"

transactorContract("memory", MemoryAdapters.layer)
