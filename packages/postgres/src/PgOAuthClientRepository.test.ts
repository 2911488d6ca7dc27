import { oauthClientRepositoryContract } from "@margin/core/testing/OAuthClientRepositoryContract"
import * as PgTestAdapters from "./testing/PgTestAdapters.ts"

oauthClientRepositoryContract(PgTestAdapters.backend, PgTestAdapters.layer)
