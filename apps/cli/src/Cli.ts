import * as Database from "@margin/postgres/Database"
import { Command } from "effect/cli"
import { catalogCommand } from "./CatalogCommands.ts"
import * as CliServices from "./CliServices.ts"
import { deletionCommand } from "./DeletionCommands.ts"
import { demoCommand } from "./DemoCommand.ts"
import { memberCommand } from "./MemberCommands.ts"
import { migrateCommand } from "./MigrateCommand.ts"
import { JsonOutput } from "./Output.ts"
import { sessionTokenCommand } from "./SessionTokenCommand.ts"
import { storeCommand } from "./StoreCommands.ts"
import { supportCommand } from "./SupportCommands.ts"
import { tokenCommand } from "./TokenCommands.ts"
import { userCommand } from "./UserCommands.ts"
import { workspaceCommand } from "./WorkspaceCommands.ts"

export const version = "0.1.0"

/** `marginctl`: the operator's command line, on the same database as the service. */
export const marginctl = Command.make("marginctl").pipe(
  Command.withDescription(
    "The operator's command line of margin-service. Uses DATABASE_URL (PostgreSQL) or, without it, the embedded database in DATA_DIR (default ./.data), like the service. Every command migrates the schema first."
  ),
  // Layers are built when a handler runs: `--help` and a mistyped flag never open the database.
  Command.withSubcommands([
    migrateCommand,
    workspaceCommand.pipe(Command.provide(CliServices.layer)),
    userCommand.pipe(Command.provide(CliServices.layer)),
    memberCommand.pipe(Command.provide(CliServices.layer)),
    tokenCommand.pipe(Command.provide(CliServices.layer)),
    storeCommand.pipe(Command.provide(CliServices.layer)),
    catalogCommand.pipe(Command.provide(CliServices.layer)),
    sessionTokenCommand.pipe(Command.provide(CliServices.layer)),
    supportCommand.pipe(Command.provide(CliServices.layer)),
    deletionCommand.pipe(Command.provide(CliServices.layer)),
    demoCommand.pipe(Command.provide(CliServices.layer))
  ]),
  Command.withGlobalFlags([JsonOutput]),
  Command.provide(Database.layer)
)
