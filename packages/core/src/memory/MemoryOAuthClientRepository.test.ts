import * as MemoryAdapters from "../../src/memory/MemoryAdapters.ts"
import { oauthClientRepositoryContract } from "../testing/OAuthClientRepositoryContract.ts"

oauthClientRepositoryContract("memory", MemoryAdapters.layer)
