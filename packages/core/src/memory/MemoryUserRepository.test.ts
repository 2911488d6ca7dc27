import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"
import { userRepositoryContract } from "../testing/UserRepositoryContract.ts"

userRepositoryContract("memory", MemoryAdapters.layer)
