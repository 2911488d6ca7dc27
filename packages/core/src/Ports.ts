import type { MembershipRepository } from "./access/MembershipRepository.ts"
import type { RateBudget } from "./access/RateBudget.ts"
import type { TokenRepository } from "./access/TokenRepository.ts"
import type { UserRepository } from "./access/UserRepository.ts"
import type { AlertRepository } from "./alerts/AlertRepository.ts"
import type { AuditRepository } from "./audit/AuditRepository.ts"
import type { CatalogImportRepository } from "./catalog/CatalogImportRepository.ts"
import type { CatalogRepository } from "./catalog/CatalogRepository.ts"
import type { IdempotencyKeyRepository } from "./kernel/IdempotencyKeyRepository.ts"
import type { IdGenerator } from "./kernel/IdGenerator.ts"
import type { Transactor } from "./kernel/Transactor.ts"
import type { AuthorizationCodeRepository } from "./oauth/AuthorizationCodeRepository.ts"
import type { LoginLinkRepository } from "./oauth/LoginLinkRepository.ts"
import type { OAuthClientRepository } from "./oauth/OAuthClientRepository.ts"
import type { OAuthGrantRepository } from "./oauth/OAuthGrantRepository.ts"
import type { RecommendationRepository } from "./recommendations/RecommendationRepository.ts"
import type { RunRepository } from "./runs/RunRepository.ts"
import type { SyncScheduleRepository } from "./schedules/SyncScheduleRepository.ts"
import type { StoreConnectionRepository } from "./stores/StoreConnectionRepository.ts"
import type { StoreSalesRepository } from "./stores/StoreSalesRepository.ts"
import type { StoreSyncJobRepository } from "./stores/StoreSyncJobRepository.ts"
import type { StoreSyncStateRepository } from "./stores/StoreSyncStateRepository.ts"
import type { DeletionRequestRepository } from "./workspaces/DeletionRequestRepository.ts"
import type { SupportSessionRepository } from "./workspaces/SupportSessionRepository.ts"
import type { WorkspaceRepository } from "./workspaces/WorkspaceRepository.ts"
import type { StoreWriteBack } from "./writeback/StoreWriteBack.ts"
import type { WriteBackOutbox } from "./writeback/WriteBackOutbox.ts"

/**
 * The ports whose data lives in the service's database, listed once: the memory adapters
 * (`memory/MemoryAdapters.ts`) and the PostgreSQL adapters (`PgAdapters` of @margin/postgres)
 * each provide all of them, and their layers' types say so, so a port added here and missing from
 * either adapter set does not compile.
 */
export type StoredPorts =
  | Transactor
  | IdGenerator
  | WorkspaceRepository
  | UserRepository
  | MembershipRepository
  | TokenRepository
  | StoreConnectionRepository
  | CatalogRepository
  | CatalogImportRepository
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
  | IdempotencyKeyRepository
  | StoreSyncStateRepository
  | StoreSalesRepository
  | StoreSyncJobRepository
  | SyncScheduleRepository

/**
 * Every port a serving process needs: the stored ones, the rate budget and the store write-back
 * (those two are composed per process: PostgreSQL or Redis budget, sandbox or Shopify store).
 */
export type Ports = StoredPorts | RateBudget | StoreWriteBack
