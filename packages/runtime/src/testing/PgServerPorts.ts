import * as PgTestAdapters from "@margin/postgres/testing/PgTestAdapters"
import { StoreRouter } from "@margin/stores"
import { Duration, Layer, Option } from "effect"
import * as ServerInfrastructure from "../infrastructure/ServerInfrastructure.ts"

/**
 * What the REST server runs on, for tests over the database: every port on PostgreSQL (the test
 * database: embedded, or DATABASE_URL's server), the store router and the database rate budget
 * (a limit no test reaches, one process, Redis off).
 */
export const layer = Layer.mergeAll(
  StoreRouter.layerLive,
  ServerInfrastructure.rateBudgetLayer({
    rateLimitPerMinute: 1_000_000,
    redisUrl: Option.none(),
    rateLimitProcesses: 1,
    redisTimeout: Duration.seconds(2)
  })
).pipe(Layer.provideMerge(PgTestAdapters.layer))
