import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"
import { authorizationCodeRepositoryContract } from "../testing/AuthorizationCodeRepositoryContract.ts"

authorizationCodeRepositoryContract("memory", MemoryAdapters.layer)
