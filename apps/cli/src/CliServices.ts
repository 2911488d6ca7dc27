import { AuditTrail } from "@margin/core/AuditTrail"
import { RunExecutor } from "@margin/core/RunExecutor"
import { Runs } from "@margin/core/RunsService"
import { CredentialCipher } from "@margin/postgres/CredentialCipher"
import * as Migrations from "@margin/postgres/Migrations"
import * as PgAlertRepository from "@margin/postgres/PgAlertRepository"
import * as PgAuditRepository from "@margin/postgres/PgAuditRepository"
import * as PgCatalogRepository from "@margin/postgres/PgCatalogRepository"
import * as PgDeletionRequestRepository from "@margin/postgres/PgDeletionRequestRepository"
import * as PgIdentityKeyStore from "@margin/postgres/PgIdentityKeyStore"
import * as PgIdGenerator from "@margin/postgres/PgIdGenerator"
import * as PgMembershipRepository from "@margin/postgres/PgMembershipRepository"
import * as PgRecommendationRepository from "@margin/postgres/PgRecommendationRepository"
import * as PgRunRepository from "@margin/postgres/PgRunRepository"
import * as PgStoreConnectionRepository from "@margin/postgres/PgStoreConnectionRepository"
import * as PgSupportSessionRepository from "@margin/postgres/PgSupportSessionRepository"
import * as PgTokenRepository from "@margin/postgres/PgTokenRepository"
import * as PgTransactor from "@margin/postgres/PgTransactor"
import * as PgUserRepository from "@margin/postgres/PgUserRepository"
import * as PgWorkspaceRepository from "@margin/postgres/PgWorkspaceRepository"
import { Layer } from "effect"

/** The ports on the database the process uses (Database.layer), the schema migrated first. */
const ports = Layer.mergeAll(
  PgTransactor.layer,
  PgWorkspaceRepository.layer,
  PgUserRepository.layer,
  PgMembershipRepository.layer,
  PgTokenRepository.layer,
  PgStoreConnectionRepository.layer,
  PgCatalogRepository.layer,
  PgRunRepository.layer,
  PgRecommendationRepository.layer,
  PgAlertRepository.layer,
  PgAuditRepository.layer,
  PgSupportSessionRepository.layer,
  PgDeletionRequestRepository.layer,
  PgIdentityKeyStore.layer
).pipe(Layer.provideMerge(Layer.mergeAll(CredentialCipher.layer, PgIdGenerator.layer)))

/** What the commands use: the ports and the use cases over them. Needs the Database layer. */
export const layer = Layer.mergeAll(AuditTrail.layer, Runs.layer, RunExecutor.layer).pipe(
  Layer.provideMerge(ports),
  Layer.provide(Migrations.layer)
)
