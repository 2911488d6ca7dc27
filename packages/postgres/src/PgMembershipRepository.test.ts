import { membershipRepositoryContract } from "@margin/core/testing/MembershipRepositoryContract"
import * as PgTestAdapters from "./testing/PgTestAdapters.ts"

membershipRepositoryContract(PgTestAdapters.backend, PgTestAdapters.layer)
