import type { StoredPorts } from "@margin/core/Ports"
import type { StoreCredentials } from "@margin/core/stores/StoreCredentials"
import { type Config, Layer } from "effect"
import type { SqlClient } from "effect/sql"
import { CredentialCipher, type InvalidCredentialsKey } from "./CredentialCipher.ts"
import * as PgAlertRepository from "./PgAlertRepository.ts"
import * as PgAuditRepository from "./PgAuditRepository.ts"
import * as PgAuthorizationCodeRepository from "./PgAuthorizationCodeRepository.ts"
import * as PgCatalogImportRepository from "./PgCatalogImportRepository.ts"
import * as PgCatalogRepository from "./PgCatalogRepository.ts"
import * as PgDeletionRequestRepository from "./PgDeletionRequestRepository.ts"
import * as PgIdempotencyKeyRepository from "./PgIdempotencyKeyRepository.ts"
import * as PgIdGenerator from "./PgIdGenerator.ts"
import * as PgLoginLinkRepository from "./PgLoginLinkRepository.ts"
import * as PgMembershipRepository from "./PgMembershipRepository.ts"
import * as PgOAuthClientRepository from "./PgOAuthClientRepository.ts"
import * as PgOAuthGrantRepository from "./PgOAuthGrantRepository.ts"
import * as PgRecommendationRepository from "./PgRecommendationRepository.ts"
import * as PgRunRepository from "./PgRunRepository.ts"
import * as PgStoreConnectionRepository from "./PgStoreConnectionRepository.ts"
import * as PgStoreCredentials from "./PgStoreCredentials.ts"
import * as PgStoreSalesRepository from "./PgStoreSalesRepository.ts"
import * as PgStoreSyncJobRepository from "./PgStoreSyncJobRepository.ts"
import * as PgStoreSyncStateRepository from "./PgStoreSyncStateRepository.ts"
import * as PgSupportSessionRepository from "./PgSupportSessionRepository.ts"
import * as PgSyncScheduleRepository from "./PgSyncScheduleRepository.ts"
import * as PgTokenRepository from "./PgTokenRepository.ts"
import * as PgTransactor from "./PgTransactor.ts"
import * as PgUserRepository from "./PgUserRepository.ts"
import * as PgWorkspaceRepository from "./PgWorkspaceRepository.ts"
import * as PgWriteBackOutbox from "./PgWriteBackOutbox.ts"

/**
 * What `layer` provides: every port of core that lives in the database (`StoredPorts`, the list
 * the memory adapters provide too), and the store adapters' read of sealed credentials (with its
 * cipher). The rate budget (PgRateBudget or
 * Redis) and the store write-back (@margin/stores) are composed by each app.
 */
export type PgPorts = StoredPorts | StoreCredentials | CredentialCipher

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
    PgStoreSalesRepository.layer,
    PgStoreSyncJobRepository.layer,
    PgSyncScheduleRepository.layer,
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
    PgLoginLinkRepository.layer,
    PgIdempotencyKeyRepository.layer
  ).pipe(Layer.provideMerge(Layer.mergeAll(PgIdGenerator.layer, cipher)))

/**
 * Every adapter over the SqlClient in context (Database.layer, migrated), credentials sealed with
 * STORE_CREDENTIALS_KEY or the development key.
 */
export const layer: Layer.Layer<PgPorts, Config.ConfigError | InvalidCredentialsKey, SqlClient.SqlClient> = layerWith(
  CredentialCipher.layer
)
