import { Database } from "@margin/postgres"
import { Layer } from "effect"
import { Command } from "effect/cli"
import * as CliServices from "./CliServices.ts"

/** The database of the process (DATABASE_URL or DATA_DIR), migrated, and every port on it. */
const services = CliServices.layer.pipe(Layer.provideMerge(Database.layer))

/**
 * Runs a command on the database. Apply it to commands that run, never to a group: the layer is
 * built when the handler runs, and a group's handler runs for `marginctl workspace` (help) too,
 * which must not open the database.
 */
export const onDatabase = <const Name extends string, Input, ContextInput, E, R>(
  command: Command.Command<Name, Input, ContextInput, E, R>
) => command.pipe(Command.provide(services))

/** Runs a command on the database alone, not migrated (`marginctl migrate`, which migrates it). */
export const onBareDatabase = <const Name extends string, Input, ContextInput, E, R>(
  command: Command.Command<Name, Input, ContextInput, E, R>
) => command.pipe(Command.provide(Database.layer))
