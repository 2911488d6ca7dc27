import { onBareDatabase, onDatabase } from "@margin/runtime/cli"
import { Command } from "effect/cli"
import { catalogCommand } from "./CatalogCommands.ts"
import { deletionCommand } from "./DeletionCommands.ts"
import { demoCommand } from "./DemoCommand.ts"
import { deprecationCommand } from "./DeprecationCommands.ts"
import { grantCommand } from "./GrantCommands.ts"
import { memberCommand } from "./MemberCommands.ts"
import { migrateCommand } from "./MigrateCommand.ts"
import { JsonOutput } from "./Output.ts"
import { runCommand } from "./RunCommands.ts"
import { sessionTokenCommand } from "./SessionTokenCommand.ts"
import { storeCommand } from "./StoreCommands.ts"
import { supportCommand } from "./SupportCommands.ts"
import { tokenCommand } from "./TokenCommands.ts"
import { userCommand } from "./UserCommands.ts"
import { workspaceCommand } from "./WorkspaceCommands.ts"

export const version = "0.1.0"

/**
 * `marginctl`: the operator's command line, on the same database as the service. Each command
 * that runs gets its database (`onDatabase`, or the bare database for `migrate`); groups get
 * none, so help and mistyped flags never open it.
 */
export const marginctl = Command.make("marginctl").pipe(
  Command.withDescription(
    "The operator's command line of margin-service. Uses DATABASE_URL (PostgreSQL) or, without it, the embedded database in DATA_DIR (default ./.data), like the service. Every command migrates the schema first."
  ),
  Command.withExamples([
    {
      command: "marginctl demo",
      description: "A demo workspace with a catalog, a sandbox store, a finished run and tokens"
    },
    {
      command: 'marginctl workspace create --name "Acme Goods" --plan pro --json',
      description: "A workspace, as JSON"
    },
    { command: "marginctl run watch run_01jh92", description: "Follow a run to its end" }
  ]),
  Command.withSubcommands([
    onBareDatabase(migrateCommand),
    workspaceCommand,
    userCommand,
    memberCommand,
    tokenCommand,
    grantCommand,
    storeCommand,
    catalogCommand,
    runCommand,
    onDatabase(sessionTokenCommand),
    supportCommand,
    deletionCommand,
    deprecationCommand,
    onDatabase(demoCommand)
  ]),
  Command.withGlobalFlags([JsonOutput])
)
