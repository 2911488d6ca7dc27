import type { AlertRepository } from "./AlertRepository.ts"
import type { AuditRepository } from "./AuditRepository.ts"
import type { AuthorizationCodeRepository } from "./AuthorizationCodeRepository.ts"
import type { CatalogImportRepository } from "./CatalogImportRepository.ts"
import type { CatalogRepository } from "./CatalogRepository.ts"
import type { DeletionRequestRepository } from "./DeletionRequestRepository.ts"
import type { IdempotencyKeyRepository } from "./IdempotencyKeyRepository.ts"
import type { IdGenerator } from "./IdGenerator.ts"
import type { LoginLinkRepository } from "./LoginLinkRepository.ts"
import type { MembershipRepository } from "./MembershipRepository.ts"
import type { OAuthClientRepository } from "./OAuthClientRepository.ts"
import type { OAuthGrantRepository } from "./OAuthGrantRepository.ts"
import type { RateBudget } from "./RateBudget.ts"
import type { RecommendationRepository } from "./RecommendationRepository.ts"
import type { RunRepository } from "./RunRepository.ts"
import type { StoreConnectionRepository } from "./StoreConnectionRepository.ts"
import type { StoreSyncStateRepository } from "./StoreSyncStateRepository.ts"
import type { StoreWriteBack } from "./StoreWriteBack.ts"
import type { SupportSessionRepository } from "./SupportSessionRepository.ts"
import type { TokenRepository } from "./TokenRepository.ts"
import type { Transactor } from "./Transactor.ts"
import type { UserRepository } from "./UserRepository.ts"
import type { WorkspaceRepository } from "./WorkspaceRepository.ts"
import type { WriteBackOutbox } from "./WriteBackOutbox.ts"

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

/**
 * Every port a serving process needs: the stored ones, the rate budget and the store write-back
 * (those two are composed per process: PostgreSQL or Redis budget, sandbox or Shopify store).
 */
export type Ports = StoredPorts | RateBudget | StoreWriteBack
