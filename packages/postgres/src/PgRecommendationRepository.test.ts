import { recommendationRepositoryContract } from "@margin/core/testing/RecommendationRepositoryContract"
import * as PgTestAdapters from "./testing/PgTestAdapters.ts"

recommendationRepositoryContract(PgTestAdapters.backend, PgTestAdapters.layer)
