import { userRepositoryContract } from "@margin/core/testing/UserRepositoryContract"
import * as PgTestAdapters from "./testing/PgTestAdapters.ts"

userRepositoryContract(PgTestAdapters.backend, PgTestAdapters.layer)
