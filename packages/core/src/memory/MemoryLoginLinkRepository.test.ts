import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"
import { loginLinkRepositoryContract } from "../testing/LoginLinkRepositoryContract.ts"

loginLinkRepositoryContract("memory", MemoryAdapters.layer)
