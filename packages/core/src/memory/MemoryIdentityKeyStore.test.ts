import { Effect } from "effect"
import * as MemoryIdentityKeyStore from "../../src/memory/MemoryIdentityKeyStore.ts"
import { identityKeyStoreContract } from "../testing/IdentityKeyStoreContract.ts"

identityKeyStoreContract("memory", MemoryIdentityKeyStore.layer, Effect.void)
