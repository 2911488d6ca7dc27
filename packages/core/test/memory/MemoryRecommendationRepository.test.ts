import { recommendationRepositoryContract } from "../../testing/RecommendationRepositoryContract.ts"
import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"

recommendationRepositoryContract("memory", MemoryAdapters.layer)
