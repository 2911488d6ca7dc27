import { userRepositoryContract } from "../testing/UserRepositoryContract.ts"
import * as MemoryAdapters from "./MemoryAdapters.ts"

userRepositoryContract("memory", MemoryAdapters.layer)
