import { authorizationCodeRepositoryContract } from "@margin/core/testing/AuthorizationCodeRepositoryContract"
import * as PgTestAdapters from "./testing/PgTestAdapters.ts"

authorizationCodeRepositoryContract(PgTestAdapters.backend, PgTestAdapters.layer)
