import { Layer } from "effect"
import * as PgAdapters from "../PgAdapters.ts"
import { TestDatabase } from "./TestDatabase.ts"

/** Which database the tests of this run use (TestDatabase decides the same way), for suite names. */
export const backend: "embedded" | "postgres" = process.env.DATABASE_URL === undefined ? "embedded" : "postgres"

/**
 * Every Postgres adapter over a fresh migrated TestDatabase: each build of the layer (each
 * contract suite) gets its own database. Setup failures are defects: the tests cannot run.
 */
export const layer = PgAdapters.layer.pipe(Layer.provideMerge(TestDatabase.layer), Layer.orDie)
