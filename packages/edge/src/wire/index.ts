/**
 * @margin/edge/wire: what both front doors put on the wire: the JSON of every resource, the
 * request bodies, lists, the report formats, the error envelope, the deprecated operations.
 */
export * from "./AlertJson.ts"
export * from "./CatalogImportJson.ts"
export * from "./CatalogImportSummaryJson.ts"
export * from "./CatalogItemJson.ts"
export * from "./DeprecatedOperations.ts"
export * from "./EdgeErrors.ts"
// Named by the declarations of the schemas derived from an entity (the client's .d.ts build).
export type { WireFields } from "./EntityJson.ts"
export * from "./ErrorEnvelope.ts"
export * from "./IdempotencyKeyHeader.ts"
export * from "./ListJson.ts"
export * from "./MoneyJson.ts"
export * from "./MutationJson.ts"
export * from "./Payloads.ts"
export * from "./RatioJson.ts"
export * from "./RecommendationJson.ts"
export * from "./ReportFormat.ts"
export * from "./RequestIdHeader.ts"
export * from "./RunJson.ts"
export * from "./StoreSyncJson.ts"
export * from "./TimestampJson.ts"
export * from "./UnavailableLog.ts"
export * from "./Utf8Body.ts"
export * from "./WorkspaceStatusJson.ts"
