import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"
import { recommendationRepositoryContract } from "../testing/RecommendationRepositoryContract.ts"

recommendationRepositoryContract("memory", MemoryAdapters.layer)
