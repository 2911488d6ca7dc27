import { HashMap } from "effect"
import type { ApiToken } from "../../access/ApiToken.ts"
import type { Membership } from "../../access/Membership.ts"
import type { User } from "../../access/User.ts"
import type { Alert } from "../../alerts/Alert.ts"
import type { AuditEvent } from "../../audit/AuditEvent.ts"
import type { CatalogImportRecord } from "../../catalog/CatalogImportRecord.ts"
import type { CatalogItem } from "../../catalog/CatalogItem.ts"
import type { IdempotentRequest } from "../../kernel/IdempotencyKeyRepository.ts"
import type { MailTransport } from "../../kernel/Mailer.ts"
import type { Timestamp } from "../../kernel/Timestamp.ts"
import type { AuthorizationCode } from "../../oauth/AuthorizationCode.ts"
import type { StoredOAuthClient } from "../../oauth/OAuthClientRepository.ts"
import type { OAuthGrant } from "../../oauth/OAuthGrant.ts"
import type { OAuthToken } from "../../oauth/OAuthToken.ts"
import type { Recommendation } from "../../recommendations/Recommendation.ts"
import type { Run } from "../../runs/Run.ts"
import type { SyncSchedule } from "../../schedules/SyncSchedule.ts"
import type { StoreConnection } from "../../stores/StoreConnection.ts"
import type { StoreSale } from "../../stores/StoreSale.ts"
import type { StoreSyncJob } from "../../stores/StoreSyncJob.ts"
import type { StoreSyncState } from "../../stores/StoreSyncState.ts"
import type { DeletionRequest } from "../../workspaces/DeletionRequest.ts"
import type { SupportSession } from "../../workspaces/SupportSession.ts"
import type { Workspace } from "../../workspaces/Workspace.ts"
import type { WriteBack } from "../../writeback/WriteBack.ts"

/** A worker's claim on a row: who holds it and until when (epoch ms). Null when nobody does. */
export interface Lease {
  readonly owner: string
  readonly until: number
}

export interface TokenRow {
  readonly token: ApiToken
  readonly secretHash: string
}

export interface StoreConnectionRow {
  readonly connection: StoreConnection
  /** Kept as given: nothing in memory needs encrypting, and core never reads it back. */
  readonly credentials: string | null
}

/** A sign-in link used once, by the hash of its nonce. */
export interface UsedLoginLink {
  readonly expiresAt: number
  readonly usedAt: number
}

export interface RunRow {
  readonly run: Run
  readonly lease: Lease | null
}

export interface StoreSyncJobRow {
  readonly job: StoreSyncJob
  readonly lease: Lease | null
}

export interface WriteBackRow {
  readonly writeBack: WriteBack
  readonly lease: Lease | null
}

/**
 * A deprecation notice of one (operation, workspace, user): claimed until `claimedUntil` while it
 * is being sent, then sent at `notifiedAt` (the claim ends). Keyed by `deprecationNoticeKey`.
 */
export interface DeprecationNoticeRow {
  readonly operation: string
  readonly workspaceId: string
  readonly userId: string
  readonly email: string
  readonly transport: MailTransport
  readonly notifiedAt: Timestamp | null
  readonly claimedUntil: Timestamp | null
}

/**
 * Every table of the in-memory database. Persistent maps, so a snapshot is just the value
 * itself and restoring it after a failed transaction costs nothing.
 */
export interface Tables {
  readonly workspaces: HashMap.HashMap<string, Workspace>
  readonly users: HashMap.HashMap<string, User>
  /** Keyed by `membershipKey(workspaceId, userId)`. */
  readonly memberships: HashMap.HashMap<string, Membership>
  readonly tokens: HashMap.HashMap<string, TokenRow>
  /** Keyed by workspace id: one connection per workspace. */
  readonly storeConnections: HashMap.HashMap<string, StoreConnectionRow>
  readonly catalogItems: HashMap.HashMap<string, CatalogItem>
  readonly runs: HashMap.HashMap<string, RunRow>
  readonly recommendations: HashMap.HashMap<string, Recommendation>
  readonly alerts: HashMap.HashMap<string, Alert>
  readonly auditEvents: HashMap.HashMap<string, AuditEvent>
  readonly writeBacks: HashMap.HashMap<string, WriteBackRow>
  /** The write-back of each recommendation (one at most), by recommendation id: found without a scan. */
  readonly writeBackByRecommendation: HashMap.HashMap<string, string>
  readonly supportSessions: HashMap.HashMap<string, SupportSession>
  readonly deletionRequests: HashMap.HashMap<string, DeletionRequest>
  readonly deprecationNotices: HashMap.HashMap<string, DeprecationNoticeRow>
  readonly oauthClients: HashMap.HashMap<string, StoredOAuthClient>
  /** Keyed by the code's hash. */
  readonly authorizationCodes: HashMap.HashMap<string, AuthorizationCode>
  readonly oauthGrants: HashMap.HashMap<string, OAuthGrant>
  /** Keyed by the token's hash. */
  readonly oauthTokens: HashMap.HashMap<string, OAuthToken>
  /** Keyed by the hash of the link's nonce. */
  readonly loginLinks: HashMap.HashMap<string, UsedLoginLink>
  /** Keyed by `idempotencyKeyOf`. */
  readonly idempotentRequests: HashMap.HashMap<string, IdempotentRequest>
  readonly catalogImports: HashMap.HashMap<string, CatalogImportRecord>
  /** Keyed by workspace id. */
  readonly storeSyncStates: HashMap.HashMap<string, StoreSyncState>
  /** Keyed by `storeSaleKey`. */
  readonly storeSales: HashMap.HashMap<string, StoreSale & { readonly workspaceId: string }>
  readonly storeSyncJobs: HashMap.HashMap<string, StoreSyncJobRow>
  readonly syncSchedules: HashMap.HashMap<string, SyncSchedule>
}

export const emptyTables: Tables = {
  workspaces: HashMap.empty(),
  users: HashMap.empty(),
  memberships: HashMap.empty(),
  tokens: HashMap.empty(),
  storeConnections: HashMap.empty(),
  catalogItems: HashMap.empty(),
  runs: HashMap.empty(),
  recommendations: HashMap.empty(),
  alerts: HashMap.empty(),
  auditEvents: HashMap.empty(),
  writeBacks: HashMap.empty(),
  writeBackByRecommendation: HashMap.empty(),
  supportSessions: HashMap.empty(),
  deletionRequests: HashMap.empty(),
  deprecationNotices: HashMap.empty(),
  oauthClients: HashMap.empty(),
  authorizationCodes: HashMap.empty(),
  oauthGrants: HashMap.empty(),
  oauthTokens: HashMap.empty(),
  loginLinks: HashMap.empty(),
  idempotentRequests: HashMap.empty(),
  catalogImports: HashMap.empty(),
  storeSyncStates: HashMap.empty(),
  storeSales: HashMap.empty(),
  storeSyncJobs: HashMap.empty(),
  syncSchedules: HashMap.empty()
}

export const idempotencyKeyOf = (workspaceId: string, operation: string, key: string): string =>
  JSON.stringify([workspaceId, operation, key])

export const storeSaleKey = (workspaceId: string, lineRef: string): string => JSON.stringify([workspaceId, lineRef])

export const membershipKey = (workspaceId: string, userId: string): string => `${workspaceId}/${userId}`

export const deprecationNoticeKey = (operation: string, workspaceId: string, userId: string): string =>
  `${operation}/${workspaceId}/${userId}`

/** A typed handle on one table: read its rows, or write them back into a new set of tables. */
export interface Table<Row> {
  readonly name: string
  readonly rows: (tables: Tables) => HashMap.HashMap<string, Row>
  readonly withRows: (tables: Tables, rows: HashMap.HashMap<string, Row>) => Tables
}

const table = <K extends keyof Tables>(name: K) => ({
  name,
  rows: (tables: Tables): Tables[K] => tables[name],
  withRows: (tables: Tables, rows: Tables[K]): Tables => ({ ...tables, [name]: rows })
})

export const workspacesTable: Table<Workspace> = table("workspaces")
export const usersTable: Table<User> = table("users")
export const membershipsTable: Table<Membership> = table("memberships")
export const tokensTable: Table<TokenRow> = table("tokens")
export const storeConnectionsTable: Table<StoreConnectionRow> = table("storeConnections")
export const catalogItemsTable: Table<CatalogItem> = table("catalogItems")
export const catalogImportsTable: Table<CatalogImportRecord> = table("catalogImports")
export const storeSyncStatesTable: Table<StoreSyncState> = table("storeSyncStates")
export const storeSalesTable: Table<StoreSale & { readonly workspaceId: string }> = table("storeSales")
export const storeSyncJobsTable: Table<StoreSyncJobRow> = table("storeSyncJobs")
export const syncSchedulesTable: Table<SyncSchedule> = table("syncSchedules")
export const runsTable: Table<RunRow> = table("runs")
export const recommendationsTable: Table<Recommendation> = table("recommendations")
export const alertsTable: Table<Alert> = table("alerts")
export const auditEventsTable: Table<AuditEvent> = table("auditEvents")
export const writeBacksTable: Table<WriteBackRow> = table("writeBacks")
export const supportSessionsTable: Table<SupportSession> = table("supportSessions")
export const deletionRequestsTable: Table<DeletionRequest> = table("deletionRequests")
export const deprecationNoticesTable: Table<DeprecationNoticeRow> = table("deprecationNotices")
export const oauthClientsTable: Table<StoredOAuthClient> = table("oauthClients")
export const authorizationCodesTable: Table<AuthorizationCode> = table("authorizationCodes")
export const oauthGrantsTable: Table<OAuthGrant> = table("oauthGrants")
export const oauthTokensTable: Table<OAuthToken> = table("oauthTokens")
export const loginLinksTable: Table<UsedLoginLink> = table("loginLinks")
export const idempotentRequestsTable: Table<IdempotentRequest> = table("idempotentRequests")
