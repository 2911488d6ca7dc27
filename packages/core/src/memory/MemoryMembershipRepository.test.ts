import { membershipRepositoryContract } from "../testing/MembershipRepositoryContract.ts"
import * as MemoryAdapters from "./MemoryAdapters.ts"

membershipRepositoryContract("memory", MemoryAdapters.layer)
