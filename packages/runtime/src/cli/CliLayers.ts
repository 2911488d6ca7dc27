import { Database } from "@margin/postgres"
import { Layer } from "effect"
import * as CliServices from "./CliServices.ts"

/** The database of the process (DATABASE_URL or DATA_DIR), migrated, and every port on it. */
export const services = CliServices.layer.pipe(Layer.provideMerge(Database.layer))

/** The database alone, not migrated. */
export const bareDatabase = Database.layer
