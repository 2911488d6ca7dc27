import { NodeRedis } from "@effect/platform-node"
import type { Ports } from "@margin/core/memory/MemoryAdapters"
import type { IdentityKeyStore } from "@margin/core/ports/IdentityKeyStore"
import { defaultRequestsPerMinute } from "@margin/core/ports/RateBudget"
import type { RateBudgetStore } from "@margin/core/ports/RateBudgetStore"
import * as Database from "@margin/postgres/Database"
import * as Migrations from "@margin/postgres/Migrations"
import * as PgAdapters from "@margin/postgres/PgAdapters"
import * as PgIdentityKeyStore from "@margin/postgres/PgIdentityKeyStore"
import * as PgRateBudgetStore from "@margin/postgres/PgRateBudgetStore"
import * as StoreRouter from "@margin/stores/StoreRouter"
import { Config, Layer, Option, Redacted, Schema } from "effect"
import type { SqlClient } from "effect/sql"
import * as FallbackRateBudget from "./FallbackRateBudget.ts"
import * as ObservedPorts from "./ObservedPorts.ts"
import * as RedisRateBudgetStore from "./RedisRateBudgetStore.ts"

export interface ServerInfrastructureOptions {
  /** Requests per minute per token / session user (the contract's default: 60). */
  readonly rateLimitPerMinute: number
  /** REDIS_URL: the shared budget lives in Redis; without it, in the database (rate_budget_windows). */
  readonly redisUrl: Option.Option<Redacted.Redacted<string>>
}

const PositiveInt = Schema.FiniteFromString.pipe(Schema.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(1)))

/**
 * RATE_LIMIT_PER_MINUTE (default 60) and REDIS_URL, read alike by every process that serves
 * requests (REST, MCP alone, MCP over stdio), so that they spend one budget with one limit.
 */
export const optionsConfig: Config.Config<ServerInfrastructureOptions> = Config.all({
  rateLimitPerMinute: Config.schema(PositiveInt, "RATE_LIMIT_PER_MINUTE").pipe(
    Config.withDefault(defaultRequestsPerMinute)
  ),
  redisUrl: Config.option(Config.Redacted("REDIS_URL"))
})

/**
 * The budget shared by every process and front door: counted in Redis when configured, else in the
 * database; while that store cannot count, each process counts in memory (FallbackRateBudget).
 */
export const rateBudgetLayer = (options: ServerInfrastructureOptions) =>
  FallbackRateBudget.layer.pipe(
    Layer.provide(
      Option.match(options.redisUrl, {
        onNone: (): Layer.Layer<RateBudgetStore, never, SqlClient.SqlClient> =>
          PgRateBudgetStore.layer({ limit: options.rateLimitPerMinute }),
        onSome: (url) =>
          RedisRateBudgetStore.layer({ limit: options.rateLimitPerMinute }).pipe(
            // Commands fail at once while Redis is away (instead of queueing), so the memory budget answers.
            Layer.provide(NodeRedis.layer({ url: Redacted.value(url), disableOfflineQueue: true }))
          )
      })
    )
  )

/**
 * Every port of core on the real infrastructure, for long-running processes (REST, MCP, worker):
 * the database of Database.layer (DATABASE_URL, else the embedded one in DATA_DIR), migrated
 * while the layer builds; the PostgreSQL adapters; the store write-back router (sandbox, Shopify);
 * the shared rate budget; the identity key store of development sessions. Also provides the
 * SqlClient (readiness checks) and the database's description.
 */
export const layer = (options: ServerInfrastructureOptions) =>
  Layer.mergeAll(
    // The run repository and the outbox are observed (ServiceMetrics) over the PostgreSQL ones.
    Layer.mergeAll(StoreRouter.layerLive, ObservedPorts.layer).pipe(Layer.provideMerge(PgAdapters.layer)),
    rateBudgetLayer(options),
    PgIdentityKeyStore.layer
  ).pipe(Layer.provide(Migrations.layer), Layer.provideMerge(Database.layer))

/** What `layer` provides beyond `Database.Services`. */
export type ServerPorts = Ports | IdentityKeyStore
