import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"
import { idempotencyKeyRepositoryContract } from "../testing/IdempotencyKeyRepositoryContract.ts"

idempotencyKeyRepositoryContract("memory", MemoryAdapters.layer)
