import { Layer } from "effect"
import { defaultRequestsPerMinute } from "../access/RateBudget.ts"
import type { DeprecationNoticeRepository } from "../deprecation/DeprecationNoticeRepository.ts"
import type { Ports } from "../Ports.ts"
import * as MemoryAlertRepository from "./MemoryAlertRepository.ts"
import * as MemoryAuditRepository from "./MemoryAuditRepository.ts"
import * as MemoryAuthorizationCodeRepository from "./MemoryAuthorizationCodeRepository.ts"
import * as MemoryCatalogImportRepository from "./MemoryCatalogImportRepository.ts"
import * as MemoryCatalogRepository from "./MemoryCatalogRepository.ts"
import { MemoryDatabase } from "./MemoryDatabase.ts"
import * as MemoryDeletionRequestRepository from "./MemoryDeletionRequestRepository.ts"
import * as MemoryDeprecationNoticeRepository from "./MemoryDeprecationNoticeRepository.ts"
import * as MemoryIdempotencyKeyRepository from "./MemoryIdempotencyKeyRepository.ts"
import * as MemoryIdGenerator from "./MemoryIdGenerator.ts"
import * as MemoryLoginLinkRepository from "./MemoryLoginLinkRepository.ts"
import * as MemoryMembershipRepository from "./MemoryMembershipRepository.ts"
import * as MemoryOAuthClientRepository from "./MemoryOAuthClientRepository.ts"
import * as MemoryOAuthGrantRepository from "./MemoryOAuthGrantRepository.ts"
import * as MemoryRateBudget from "./MemoryRateBudget.ts"
import * as MemoryRecommendationRepository from "./MemoryRecommendationRepository.ts"
import * as MemoryRunRepository from "./MemoryRunRepository.ts"
import { MemoryStore } from "./MemoryStore.ts"
import * as MemoryStoreConnectionRepository from "./MemoryStoreConnectionRepository.ts"
import * as MemoryStoreSalesRepository from "./MemoryStoreSalesRepository.ts"
import * as MemoryStoreSyncJobRepository from "./MemoryStoreSyncJobRepository.ts"
import * as MemoryStoreSyncStateRepository from "./MemoryStoreSyncStateRepository.ts"
import * as MemoryStoreWriteBack from "./MemoryStoreWriteBack.ts"
import * as MemorySupportSessionRepository from "./MemorySupportSessionRepository.ts"
import * as MemorySyncScheduleRepository from "./MemorySyncScheduleRepository.ts"
import * as MemoryTokenRepository from "./MemoryTokenRepository.ts"
import * as MemoryTransactor from "./MemoryTransactor.ts"
import * as MemoryUserRepository from "./MemoryUserRepository.ts"
import * as MemoryWorkspaceRepository from "./MemoryWorkspaceRepository.ts"
import * as MemoryWriteBackOutbox from "./MemoryWriteBackOutbox.ts"

/** Every port of core (listed once, in `ports/Ports.ts`). */
export type { Ports } from "../Ports.ts"

/**
 * What `layer` provides: every port (the servers' ones, and the deprecation notices of the CLI),
 * plus the database and the fake store for seeding and inspection.
 */
export type MemoryServices = Ports | DeprecationNoticeRepository | MemoryDatabase | MemoryStore

/** Every port in memory over one fresh MemoryDatabase, with a rate budget of `rateLimit` per minute. */
export const layerWith = (options: { readonly rateLimit: number }): Layer.Layer<MemoryServices> =>
  Layer.mergeAll(
    MemoryTransactor.layer,
    MemoryWorkspaceRepository.layer,
    MemoryUserRepository.layer,
    MemoryMembershipRepository.layer,
    MemoryTokenRepository.layer,
    MemoryStoreConnectionRepository.layer,
    MemoryCatalogRepository.layer,
    MemoryCatalogImportRepository.layer,
    MemoryStoreSyncStateRepository.layer,
    MemoryStoreSalesRepository.layer,
    MemoryStoreSyncJobRepository.layer,
    MemorySyncScheduleRepository.layer,
    MemoryRunRepository.layer,
    MemoryRecommendationRepository.layer,
    MemoryAlertRepository.layer,
    MemoryAuditRepository.layer,
    MemoryWriteBackOutbox.layer,
    MemorySupportSessionRepository.layer,
    MemoryDeletionRequestRepository.layer,
    MemoryDeprecationNoticeRepository.layer,
    MemoryStoreWriteBack.layer,
    MemoryOAuthClientRepository.layer,
    MemoryAuthorizationCodeRepository.layer,
    MemoryOAuthGrantRepository.layer,
    MemoryLoginLinkRepository.layer,
    MemoryIdempotencyKeyRepository.layer,
    MemoryRateBudget.layerWith({ limit: options.rateLimit })
  ).pipe(Layer.provideMerge(Layer.mergeAll(MemoryDatabase.layer, MemoryIdGenerator.layer, MemoryStore.layer)))

/** Every port in memory, the contract's default rate budget of 60 per minute. */
export const layer: Layer.Layer<MemoryServices> = layerWith({ rateLimit: defaultRequestsPerMinute })
