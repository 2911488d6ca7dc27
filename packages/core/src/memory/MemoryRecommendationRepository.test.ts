import { recommendationRepositoryContract } from "../testing/RecommendationRepositoryContract.ts"
import * as MemoryAdapters from "./MemoryAdapters.ts"

recommendationRepositoryContract("memory", MemoryAdapters.layer)
