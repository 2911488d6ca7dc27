import * as NodeServices from "@effect/platform-node/NodeServices"
import type * as PgClient from "@effect/sql-pg/PgClient"
import * as PgMigrator from "@effect/sql-pg/PgMigrator"
import { Effect, Layer } from "effect"
import type { SqlClient } from "effect/sql"
import { isSqlError, type SqlError } from "effect/sql/SqlError"
import { reasonOf } from "./DatabaseErrors.ts"
import initial from "./migrations/0001_initial.ts"
import credentialKeys from "./migrations/0002_credential_keys.ts"
import runWrites from "./migrations/0003_run_writes.ts"
import deprecationNotices from "./migrations/0004_deprecation_notices.ts"
import oneRunPerWorkspace from "./migrations/0005_one_run_per_workspace.ts"
import runRowsUnchecked from "./migrations/0006_run_rows_unchecked.ts"
import catalogWriteIndexes from "./migrations/0007_catalog_write_indexes.ts"
import runRowsAscendingIndexes from "./migrations/0008_run_rows_ascending_indexes.ts"
import runRowsItemKeys from "./migrations/0009_run_rows_item_keys.ts"
import deprecationNoticeClaims from "./migrations/0010_deprecation_notice_claims.ts"
import pricingObjective from "./migrations/0011_pricing_objective.ts"
import oauth from "./migrations/0012_oauth.ts"
import oauthLoginLinks from "./migrations/0013_oauth_login_links.ts"
import decisionMemory from "./migrations/0014_decision_memory.ts"
import idempotencyKeys from "./migrations/0015_idempotency_keys.ts"
import catalogPriceState from "./migrations/0016_catalog_price_state.ts"
import catalogImports from "./migrations/0017_catalog_imports.ts"
import minExpectedGain from "./migrations/0018_min_expected_gain.ts"
import storeSyncStates from "./migrations/0019_store_sync_states.ts"
import writeBackUndo from "./migrations/0020_write_back_undo.ts"
import grantLastUse from "./migrations/0021_grant_last_use.ts"
import storeSales from "./migrations/0022_store_sales.ts"
import storeSyncSchedules from "./migrations/0023_store_sync_schedules.ts"
import unitsCountedAt from "./migrations/0024_units_counted_at.ts"

/**
 * Every migration, by `<id>_<name>`. Add new ones at the end with the next id; never edit one
 * that has shipped. Applied migrations are recorded in `effect_sql_migrations`; the migrator
 * locks that table, so concurrent starts apply each migration once.
 */
export const loader = PgMigrator.fromRecord({
  "0001_initial": initial,
  "0002_credential_keys": credentialKeys,
  "0003_run_writes": runWrites,
  "0004_deprecation_notices": deprecationNotices,
  "0005_one_run_per_workspace": oneRunPerWorkspace,
  "0006_run_rows_unchecked": runRowsUnchecked,
  "0007_catalog_write_indexes": catalogWriteIndexes,
  "0008_run_rows_ascending_indexes": runRowsAscendingIndexes,
  "0009_run_rows_item_keys": runRowsItemKeys,
  "0010_deprecation_notice_claims": deprecationNoticeClaims,
  "0011_pricing_objective": pricingObjective,
  "0012_oauth": oauth,
  "0013_oauth_login_links": oauthLoginLinks,
  "0014_decision_memory": decisionMemory,
  "0015_idempotency_keys": idempotencyKeys,
  "0016_catalog_price_state": catalogPriceState,
  "0017_catalog_imports": catalogImports,
  "0018_min_expected_gain": minExpectedGain,
  "0019_store_sync_states": storeSyncStates,
  "0020_write_back_undo": writeBackUndo,
  "0021_grant_last_use": grantLastUse,
  "0022_store_sales": storeSales,
  "0023_store_sync_schedules": storeSyncSchedules,
  "0024_units_counted_at": unitsCountedAt
})

/** Applies the pending migrations (on start and by `marginctl migrate`); returns the ones it applied. */
export const run: Effect.Effect<
  ReadonlyArray<readonly [id: number, name: string]>,
  PgMigrator.MigrationError | SqlError,
  SqlClient.SqlClient | PgClient.PgClient
> = PgMigrator.run({ loader }).pipe(
  // Only schema dumps need these (pg_dump); we never ask for one.
  Effect.provide(NodeServices.layer),
  // "Migration 1_initial failed" says which; the database says why.
  Effect.mapError((error) =>
    error._tag === "MigrationError" && isSqlError(error.cause)
      ? new PgMigrator.MigrationError({
          kind: error.kind,
          message: `${error.message}: ${reasonOf(error.cause)}`,
          cause: error.cause
        })
      : error
  ),
  Effect.withSpan("Migrations.run")
)

/** Migrates while the layer builds. */
export const layer: Layer.Layer<never, PgMigrator.MigrationError | SqlError, SqlClient.SqlClient | PgClient.PgClient> =
  Layer.effectDiscard(run)
