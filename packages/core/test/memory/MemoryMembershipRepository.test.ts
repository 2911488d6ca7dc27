import { membershipRepositoryContract } from "../../testing/MembershipRepositoryContract.ts"
import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"

membershipRepositoryContract("memory", MemoryAdapters.layer)
