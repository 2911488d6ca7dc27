import { Effect } from "effect"
import { Command } from "effect/cli"
import { postgres } from "./LazyModules.ts"
import { report } from "./Output.ts"

export const migrateCommand = Command.make(
  "migrate",
  {},
  Effect.fn(function* () {
    const { DatabaseInfo, Migrations } = yield* postgres
    const info = yield* DatabaseInfo
    const applied = yield* Migrations.run
    yield* report(
      { database: info.description, applied: applied.map(([id, name]) => `${String(id).padStart(4, "0")}_${name}`) },
      (r) =>
        r.applied.length === 0 ? `Schema up to date (${r.database})` : `Applied ${r.applied.join(", ")} (${r.database})`
    )
  })
).pipe(
  Command.withDescription("Apply the pending database migrations (every other command does it too)"),
  Command.withExamples([
    { command: "marginctl migrate --json", description: "Apply what is pending; print the applied migrations as JSON" }
  ])
)
