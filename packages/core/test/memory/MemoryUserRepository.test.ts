import { userRepositoryContract } from "../../testing/UserRepositoryContract.ts"
import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"

userRepositoryContract("memory", MemoryAdapters.layer)
