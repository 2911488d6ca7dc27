import { NodeRedis } from "@effect/platform-node"
import type { IdentityKeyStore } from "@margin/core/access/IdentityKeyStore"
import type { RateBudgetStore } from "@margin/core/access/RateBudgetStore"
import type { Ports } from "@margin/core/memory/MemoryAdapters"
import { Database, Migrations, PgAdapters, PgIdentityKeyStore, PgRateBudgetStore } from "@margin/postgres"
import { RedisRateBudgetStore } from "@margin/redis"
import { StoreCatalogRouter, StoreConnectionChecks, StoreRouter } from "@margin/stores"
import { Duration, Layer, Option, Redacted } from "effect"
import type { SqlClient } from "effect/sql"
import type { InfrastructureOptions } from "../config/InfrastructureConfig.ts"
import * as FallbackRateBudget from "./FallbackRateBudget.ts"
import * as ObservedPorts from "./ObservedPorts.ts"

/**
 * The budget shared by every process and front door: counted in Redis when configured, else in the
 * database; while that store cannot count, each process counts its share of the limit in memory
 * (FallbackRateBudget).
 */
export const rateBudgetLayer = (options: InfrastructureOptions) =>
  FallbackRateBudget.layerWith({ processes: options.rateLimitProcesses }).pipe(
    Layer.provide(
      Option.match(options.redisUrl, {
        onNone: (): Layer.Layer<RateBudgetStore, never, SqlClient.SqlClient> =>
          PgRateBudgetStore.layer({ limit: options.rateLimitPerMinute }),
        onSome: (url) =>
          RedisRateBudgetStore.layer({
            limit: options.rateLimitPerMinute,
            timeoutMs: Duration.toMillis(options.redisTimeout)
          }).pipe(
            // Commands fail at once while Redis is away (instead of queueing), so the memory budget answers.
            Layer.provide(NodeRedis.layer({ url: Redacted.value(url), disableOfflineQueue: true }))
          )
      })
    )
  )

/**
 * The PostgreSQL adapters and the store routers (write-back, the catalog reads of store syncs, the
 * checks of a connection);
 * the run repository and the outbox observed (ServiceMetrics).
 */
const adapters = Layer.mergeAll(
  StoreRouter.layerLive,
  StoreCatalogRouter.layerLive,
  StoreConnectionChecks.layerLive,
  ObservedPorts.layer
).pipe(Layer.provideMerge(PgAdapters.layer))

/**
 * Every port of core on the real infrastructure, for long-running processes (REST, MCP, worker):
 * the database of Database.layer (DATABASE_URL, else the embedded one in DATA_DIR), migrated
 * while the layer builds; the PostgreSQL adapters; the store write-back router (sandbox, Shopify);
 * the shared rate budget; the identity key store of development sessions. Also provides the
 * SqlClient (readiness checks) and the database's description.
 */
export const layer = (options: InfrastructureOptions) =>
  Layer.mergeAll(adapters, rateBudgetLayer(options), PgIdentityKeyStore.layer).pipe(
    Layer.provide(Migrations.layer),
    Layer.provideMerge(Database.layer)
  )

/**
 * What a worker needs of it: the database, migrated, the PostgreSQL adapters and the store
 * write-back router (no rate budget, no session keys: a worker serves no requests).
 */
export const workerLayer = adapters.pipe(Layer.provide(Migrations.layer), Layer.provideMerge(Database.layer))

/** What `layer` provides beyond `Database.Services`. */
export type ServerPorts = Ports | IdentityKeyStore
