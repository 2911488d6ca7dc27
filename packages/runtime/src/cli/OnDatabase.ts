import { Effect, Layer } from "effect"
import { Command } from "effect/cli"

// The database layers are imported when a command runs, not when marginctl starts: `--help` and
// a mistyped flag never load the PostgreSQL client, the migrations or the adapters.
const layers = Effect.promise(() => import("./CliLayers.ts"))

/**
 * Runs a command on the database. Apply it to commands that run, never to a group: the layer is
 * built when the handler runs, and a group's handler runs for `marginctl workspace` (help) too,
 * which must not open the database.
 */
export const onDatabase = <const Name extends string, Input, ContextInput, E, R>(
  command: Command.Command<Name, Input, ContextInput, E, R>
) => command.pipe(Command.provide(Layer.unwrap(Effect.map(layers, (cli) => cli.services))))

/** Runs a command on the database alone, not migrated (`marginctl migrate`, which migrates it). */
export const onBareDatabase = <const Name extends string, Input, ContextInput, E, R>(
  command: Command.Command<Name, Input, ContextInput, E, R>
) => command.pipe(Command.provide(Layer.unwrap(Effect.map(layers, (cli) => cli.bareDatabase))))
