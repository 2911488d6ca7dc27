/**
 * vitest's globalSetup (vitest.config.ts): before the first test file, joins or starts the embedded
 * test server (without DATABASE_URL) and builds the migrated template, and keeps the server up until
 * the last file is done, so that test files do not start and stop it one after the other.
 */
import { Effect, Exit, Scope } from "effect"
import { prepareRun } from "../src/testing/TestDatabase.ts"

export default async function setup(): Promise<() => Promise<void>> {
  const scope = Scope.makeUnsafe()
  await Effect.runPromise(prepareRun.pipe(Scope.provide(scope)))
  return () => Effect.runPromise(Scope.close(scope, Exit.void))
}
