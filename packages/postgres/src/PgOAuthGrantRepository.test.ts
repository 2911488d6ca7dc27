import { oauthGrantRepositoryContract } from "@margin/core/testing/OAuthGrantRepositoryContract"
import * as PgTestAdapters from "./testing/PgTestAdapters.ts"

oauthGrantRepositoryContract(PgTestAdapters.backend, PgTestAdapters.layer)
