// Makes the embedded PostgreSQL's template data directory at `npm install` (the root's `prepare`,
// after scripts/build-cli.ts): the first `npm start` on a new DATA_DIR then copies it instead of
// running initdb (docs/database.md, "Created on first use"). It never fails the install: without a
// template, the first start runs initdb and keeps one.
import { prepareTemplate } from "@margin/postgres"
import { Console, Effect } from "effect"

await Effect.runPromise(
  prepareTemplate.pipe(
    Effect.flatMap((outcome) => Console.log(`embedded PostgreSQL: ${outcome}`)),
    Effect.catch((error) =>
      Console.log(`embedded PostgreSQL: no template made (${error.message}); the first start runs initdb`)
    )
  )
)
