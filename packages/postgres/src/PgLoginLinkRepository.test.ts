import { loginLinkRepositoryContract } from "@margin/core/testing/LoginLinkRepositoryContract"
import * as PgTestAdapters from "./testing/PgTestAdapters.ts"

loginLinkRepositoryContract(PgTestAdapters.backend, PgTestAdapters.layer)
