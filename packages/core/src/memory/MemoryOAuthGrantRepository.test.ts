import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"
import { oauthGrantRepositoryContract } from "../testing/OAuthGrantRepositoryContract.ts"

oauthGrantRepositoryContract("memory", MemoryAdapters.layer)
