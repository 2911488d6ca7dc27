import { Layer } from "effect"
import type { AlertRepository } from "../ports/AlertRepository.ts"
import type { AuditRepository } from "../ports/AuditRepository.ts"
import type { AuthorizationCodeRepository } from "../ports/AuthorizationCodeRepository.ts"
import type { CatalogImportRepository } from "../ports/CatalogImportRepository.ts"
import type { CatalogRepository } from "../ports/CatalogRepository.ts"
import type { DeletionRequestRepository } from "../ports/DeletionRequestRepository.ts"
import type { DeprecationNoticeRepository } from "../ports/DeprecationNoticeRepository.ts"
import type { IdGenerator } from "../ports/IdGenerator.ts"
import type { LoginLinkRepository } from "../ports/LoginLinkRepository.ts"
import type { MembershipRepository } from "../ports/MembershipRepository.ts"
import type { OAuthClientRepository } from "../ports/OAuthClientRepository.ts"
import type { OAuthGrantRepository } from "../ports/OAuthGrantRepository.ts"
import { defaultRequestsPerMinute, type RateBudget } from "../ports/RateBudget.ts"
import type { RecommendationRepository } from "../ports/RecommendationRepository.ts"
import type { RunRepository } from "../ports/RunRepository.ts"
import type { StoreConnectionRepository } from "../ports/StoreConnectionRepository.ts"
import type { StoreSyncStateRepository } from "../ports/StoreSyncStateRepository.ts"
import type { StoreWriteBack } from "../ports/StoreWriteBack.ts"
import type { SupportSessionRepository } from "../ports/SupportSessionRepository.ts"
import type { TokenRepository } from "../ports/TokenRepository.ts"
import type { Transactor } from "../ports/Transactor.ts"
import type { UserRepository } from "../ports/UserRepository.ts"
import type { WorkspaceRepository } from "../ports/WorkspaceRepository.ts"
import type { WriteBackOutbox } from "../ports/WriteBackOutbox.ts"
import * as MemoryAlertRepository from "./MemoryAlertRepository.ts"
import * as MemoryAuditRepository from "./MemoryAuditRepository.ts"
import * as MemoryAuthorizationCodeRepository from "./MemoryAuthorizationCodeRepository.ts"
import * as MemoryCatalogImportRepository from "./MemoryCatalogImportRepository.ts"
import * as MemoryCatalogRepository from "./MemoryCatalogRepository.ts"
import { MemoryDatabase } from "./MemoryDatabase.ts"
import * as MemoryDeletionRequestRepository from "./MemoryDeletionRequestRepository.ts"
import * as MemoryDeprecationNoticeRepository from "./MemoryDeprecationNoticeRepository.ts"
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
import * as MemoryStoreSyncStateRepository from "./MemoryStoreSyncStateRepository.ts"
import * as MemoryStoreWriteBack from "./MemoryStoreWriteBack.ts"
import * as MemorySupportSessionRepository from "./MemorySupportSessionRepository.ts"
import * as MemoryTokenRepository from "./MemoryTokenRepository.ts"
import * as MemoryTransactor from "./MemoryTransactor.ts"
import * as MemoryUserRepository from "./MemoryUserRepository.ts"
import * as MemoryWorkspaceRepository from "./MemoryWorkspaceRepository.ts"
import * as MemoryWriteBackOutbox from "./MemoryWriteBackOutbox.ts"

/** Every port of core. */
export type Ports =
  | Transactor
  | IdGenerator
  | RateBudget
  | StoreWriteBack
  | WorkspaceRepository
  | UserRepository
  | MembershipRepository
  | TokenRepository
  | StoreConnectionRepository
  | CatalogRepository
  | CatalogImportRepository
  | StoreSyncStateRepository
  | RunRepository
  | RecommendationRepository
  | AlertRepository
  | AuditRepository
  | WriteBackOutbox
  | SupportSessionRepository
  | DeletionRequestRepository
  | OAuthClientRepository
  | AuthorizationCodeRepository
  | OAuthGrantRepository
  | LoginLinkRepository

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
    MemoryRateBudget.layerWith({ limit: options.rateLimit })
  ).pipe(Layer.provideMerge(Layer.mergeAll(MemoryDatabase.layer, MemoryIdGenerator.layer, MemoryStore.layer)))

/** Every port in memory, the contract's default rate budget of 60 per minute. */
export const layer: Layer.Layer<MemoryServices> = layerWith({ rateLimit: defaultRequestsPerMinute })
