import { Schema } from "effect"

/**
 * Identifiers are opaque strings with a readable prefix (`rec_…`, `alt_…`).
 * Brands keep a recommendation id from being passed where an alert id is expected.
 */
export const WorkspaceId = Schema.String.pipe(Schema.brand("WorkspaceId"))
export type WorkspaceId = typeof WorkspaceId.Type
export const UserId = Schema.String.pipe(Schema.brand("UserId"))
export type UserId = typeof UserId.Type
export const TokenId = Schema.String.pipe(Schema.brand("TokenId"))
export type TokenId = typeof TokenId.Type
export const CatalogItemId = Schema.String.pipe(Schema.brand("CatalogItemId"))
export type CatalogItemId = typeof CatalogItemId.Type
export const RunId = Schema.String.pipe(Schema.brand("RunId"))
export type RunId = typeof RunId.Type
export const RecommendationId = Schema.String.pipe(Schema.brand("RecommendationId"))
export type RecommendationId = typeof RecommendationId.Type
export const AlertId = Schema.String.pipe(Schema.brand("AlertId"))
export type AlertId = typeof AlertId.Type
export const WriteBackId = Schema.String.pipe(Schema.brand("WriteBackId"))
export type WriteBackId = typeof WriteBackId.Type
export const AuditEventId = Schema.String.pipe(Schema.brand("AuditEventId"))
export type AuditEventId = typeof AuditEventId.Type
export const SupportSessionId = Schema.String.pipe(Schema.brand("SupportSessionId"))
export type SupportSessionId = typeof SupportSessionId.Type
export const DeletionRequestId = Schema.String.pipe(Schema.brand("DeletionRequestId"))
export type DeletionRequestId = typeof DeletionRequestId.Type

export const CatalogImportId = Schema.String.pipe(Schema.brand("CatalogImportId"))
export type CatalogImportId = typeof CatalogImportId.Type

/** An OAuth client: `mcl_…` when registered (RFC 7591), or the https URL of its client ID metadata document. */
export const OAuthClientId = Schema.String.pipe(Schema.brand("OAuthClientId"))
export type OAuthClientId = typeof OAuthClientId.Type
/** One user's consent for one OAuth client to reach one workspace. */
export const GrantId = Schema.String.pipe(Schema.brand("GrantId"))
export type GrantId = typeof GrantId.Type

/** A sync of a workspace's store, asked for or scheduled (StoreSyncJob). */
export const StoreSyncId = Schema.String.pipe(Schema.brand("StoreSyncId"))
export type StoreSyncId = typeof StoreSyncId.Type

/** The prefix each kind of id carries; the id generator port uses it. */
export const idPrefixes = {
  workspace: "ws",
  user: "usr",
  token: "tok",
  catalogItem: "itm",
  run: "run",
  recommendation: "rec",
  alert: "alt",
  writeBack: "wb",
  auditEvent: "aud",
  supportSession: "sup",
  deletionRequest: "del",
  oauthClient: "mcl",
  grant: "grt",
  catalogImport: "imp",
  storeSync: "syn"
} as const
export type IdKind = keyof typeof idPrefixes
