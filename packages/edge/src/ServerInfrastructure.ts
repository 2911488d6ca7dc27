import { NodeRedis } from "@effect/platform-node"
import type { Ports } from "@margin/core/memory/MemoryAdapters"
import type { RateBudget } from "@margin/core/ports/RateBudget"
import * as Database from "@margin/postgres/Database"
import * as Migrations from "@margin/postgres/Migrations"
import * as PgAdapters from "@margin/postgres/PgAdapters"
import * as PgIdentityKeyStore from "@margin/postgres/PgIdentityKeyStore"
import * as PgRateBudget from "@margin/postgres/PgRateBudget"
import * as StoreRouter from "@margin/stores/StoreRouter"
import { Layer, Option, Redacted } from "effect"
import type { SqlClient } from "effect/sql"
import type { IdentityKeyStore } from "./IdentityKeyStore.ts"
import * as RedisRateBudget from "./RedisRateBudget.ts"

export interface ServerInfrastructureOptions {
  /** Requests per minute per token / session user (spec default 60). */
  readonly rateLimitPerMinute: number
  /** REDIS_URL: the shared budget lives in Redis; without it, in the database (rate_budget_windows). */
  readonly redisUrl: Option.Option<Redacted.Redacted<string>>
}

/** The budget shared by every process and front door: Redis when configured, else the database. */
export const rateBudgetLayer = (options: ServerInfrastructureOptions) =>
  Option.match(options.redisUrl, {
    onNone: (): Layer.Layer<RateBudget, never, SqlClient.SqlClient> =>
      PgRateBudget.layer({ limit: options.rateLimitPerMinute }),
    onSome: (url) =>
      RedisRateBudget.layer({ limit: options.rateLimitPerMinute }).pipe(
        Layer.provide(NodeRedis.layer({ url: Redacted.value(url) }))
      )
  })

/**
 * Every port of core on the real infrastructure, for long-running processes (REST, MCP, worker):
 * the database of Database.layer (DATABASE_URL, else the embedded one in DATA_DIR), migrated
 * while the layer builds; the PostgreSQL adapters; the store write-back router (sandbox, Shopify);
 * the shared rate budget; the identity key store of development sessions. Also provides the
 * SqlClient (readiness checks) and the database's description.
 */
export const layer = (options: ServerInfrastructureOptions) =>
  Layer.mergeAll(
    StoreRouter.layerLive.pipe(Layer.provideMerge(PgAdapters.layer)),
    rateBudgetLayer(options),
    PgIdentityKeyStore.layer
  ).pipe(Layer.provide(Migrations.layer), Layer.provideMerge(Database.layer))

/** What `layer` provides beyond `Database.Services`. */
export type ServerPorts = Ports | IdentityKeyStore
