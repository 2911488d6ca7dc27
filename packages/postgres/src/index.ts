/**
 * @margin/postgres: the PostgreSQL adapters of core's ports, the database of every process
 * (a PostgreSQL server, or the embedded PostgreSQL of a DATA_DIR), its migrations, and the sandbox store's tables. Its test
 * kit (TestDatabase, PgTestAdapters) is under "@margin/postgres/testing/*".
 */
export * as Database from "./Database.ts"
export * as DatabaseConfig from "./DatabaseConfig.ts"
export { DatabaseConfigError, DatabaseUnavailable } from "./DatabaseErrors.ts"
export { DatabaseInfo } from "./DatabaseInfo.ts"
export { prepareTemplate } from "./EmbeddedDatabase.ts"
export * as Migrations from "./Migrations.ts"
export * as PgAdapters from "./PgAdapters.ts"
export * as PgAdvisoryLock from "./PgAdvisoryLock.ts"
export * as PgDeprecationNoticeRepository from "./PgDeprecationNoticeRepository.ts"
export * as PgIdentityKeyStore from "./PgIdentityKeyStore.ts"
export * as PgRateBudgetStore from "./PgRateBudgetStore.ts"
/** The recommendations table derived from its declaration (bench/entity-codec.ts reads it). */
export { recommendationRows } from "./PgRecommendationRows.ts"
export * as PgSandboxStore from "./PgSandboxStore.ts"
export * as PgWorkspaceRepository from "./PgWorkspaceRepository.ts"
