import type { AlertRepository } from "@margin/core/ports/AlertRepository"
import type { AuditRepository } from "@margin/core/ports/AuditRepository"
import type { AuthorizationCodeRepository } from "@margin/core/ports/AuthorizationCodeRepository"
import type { CatalogImportRepository } from "@margin/core/ports/CatalogImportRepository"
import type { CatalogRepository } from "@margin/core/ports/CatalogRepository"
import type { DeletionRequestRepository } from "@margin/core/ports/DeletionRequestRepository"
import type { IdGenerator } from "@margin/core/ports/IdGenerator"
import type { LoginLinkRepository } from "@margin/core/ports/LoginLinkRepository"
import type { MembershipRepository } from "@margin/core/ports/MembershipRepository"
import type { OAuthClientRepository } from "@margin/core/ports/OAuthClientRepository"
import type { OAuthGrantRepository } from "@margin/core/ports/OAuthGrantRepository"
import type { RecommendationRepository } from "@margin/core/ports/RecommendationRepository"
import type { RunRepository } from "@margin/core/ports/RunRepository"
import type { StoreConnectionRepository } from "@margin/core/ports/StoreConnectionRepository"
import type { StoreCredentials } from "@margin/core/ports/StoreCredentials"
import type { StoreSyncStateRepository } from "@margin/core/ports/StoreSyncStateRepository"
import type { SupportSessionRepository } from "@margin/core/ports/SupportSessionRepository"
import type { TokenRepository } from "@margin/core/ports/TokenRepository"
import type { Transactor } from "@margin/core/ports/Transactor"
import type { UserRepository } from "@margin/core/ports/UserRepository"
import type { WorkspaceRepository } from "@margin/core/ports/WorkspaceRepository"
import type { WriteBackOutbox } from "@margin/core/ports/WriteBackOutbox"
import { type Config, Layer } from "effect"
import type { SqlClient } from "effect/sql"
import { CredentialCipher, type InvalidCredentialsKey } from "./CredentialCipher.ts"
import * as PgAlertRepository from "./PgAlertRepository.ts"
import * as PgAuditRepository from "./PgAuditRepository.ts"
import * as PgAuthorizationCodeRepository from "./PgAuthorizationCodeRepository.ts"
import * as PgCatalogImportRepository from "./PgCatalogImportRepository.ts"
import * as PgCatalogRepository from "./PgCatalogRepository.ts"
import * as PgDeletionRequestRepository from "./PgDeletionRequestRepository.ts"
import * as PgIdGenerator from "./PgIdGenerator.ts"
import * as PgLoginLinkRepository from "./PgLoginLinkRepository.ts"
import * as PgMembershipRepository from "./PgMembershipRepository.ts"
import * as PgOAuthClientRepository from "./PgOAuthClientRepository.ts"
import * as PgOAuthGrantRepository from "./PgOAuthGrantRepository.ts"
import * as PgRecommendationRepository from "./PgRecommendationRepository.ts"
import * as PgRunRepository from "./PgRunRepository.ts"
import * as PgStoreConnectionRepository from "./PgStoreConnectionRepository.ts"
import * as PgStoreCredentials from "./PgStoreCredentials.ts"
import * as PgStoreSyncStateRepository from "./PgStoreSyncStateRepository.ts"
import * as PgSupportSessionRepository from "./PgSupportSessionRepository.ts"
import * as PgTokenRepository from "./PgTokenRepository.ts"
import * as PgTransactor from "./PgTransactor.ts"
import * as PgUserRepository from "./PgUserRepository.ts"
import * as PgWorkspaceRepository from "./PgWorkspaceRepository.ts"
import * as PgWriteBackOutbox from "./PgWriteBackOutbox.ts"

/**
 * What `layer` provides: every port of core that lives in the database, the id generator, and the
 * store adapters' read of sealed credentials (with its cipher). The rate budget (PgRateBudget or
 * Redis) and the store write-back (@margin/stores) are composed by each app.
 */
export type PgPorts =
  | Transactor
  | IdGenerator
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
  | StoreCredentials
  | CredentialCipher
  | OAuthClientRepository
  | AuthorizationCodeRepository
  | OAuthGrantRepository
  | LoginLinkRepository

/** Every adapter over the SqlClient in context, with the given credential cipher. */
export const layerWith = <E, R>(
  cipher: Layer.Layer<CredentialCipher, E, R>
): Layer.Layer<PgPorts, E, SqlClient.SqlClient | R> =>
  Layer.mergeAll(
    PgTransactor.layer,
    PgWorkspaceRepository.layer,
    PgUserRepository.layer,
    PgMembershipRepository.layer,
    PgTokenRepository.layer,
    PgStoreConnectionRepository.layer,
    PgCatalogRepository.layer,
    PgCatalogImportRepository.layer,
    PgStoreSyncStateRepository.layer,
    PgRunRepository.layer,
    PgRecommendationRepository.layer,
    PgAlertRepository.layer,
    PgAuditRepository.layer,
    PgWriteBackOutbox.layer,
    PgSupportSessionRepository.layer,
    PgDeletionRequestRepository.layer,
    PgStoreCredentials.layer,
    PgOAuthClientRepository.layer,
    PgAuthorizationCodeRepository.layer,
    PgOAuthGrantRepository.layer,
    PgLoginLinkRepository.layer
  ).pipe(Layer.provideMerge(Layer.mergeAll(PgIdGenerator.layer, cipher)))

/**
 * Every adapter over the SqlClient in context (Database.layer, migrated), credentials sealed with
 * STORE_CREDENTIALS_KEY or the development key.
 */
export const layer: Layer.Layer<PgPorts, Config.ConfigError | InvalidCredentialsKey, SqlClient.SqlClient> = layerWith(
  CredentialCipher.layer
)
