import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"
import { membershipRepositoryContract } from "../testing/MembershipRepositoryContract.ts"

membershipRepositoryContract("memory", MemoryAdapters.layer)
