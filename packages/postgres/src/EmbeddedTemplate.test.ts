import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as EmbeddedCluster from "./EmbeddedCluster.ts"
import { prepareTemplate } from "./EmbeddedDatabase.ts"
import * as EmbeddedTemplate from "./EmbeddedTemplate.ts"
import * as PostgresBinaries from "./PostgresBinaries.ts"
import * as ServerAccount from "./ServerAccount.ts"

/** An empty directory to copy into, as `initialize` prepares it; removed with the scope. */
const buildingDirectory = Effect.acquireRelease(
  Effect.gen(function* () {
    const account = yield* ServerAccount.resolve
    const scratch = mkdtempSync(join(tmpdir(), "margin-template-test-"))
    yield* ServerAccount.makeReachable(account, scratch)
    const building = join(scratch, "postgres.initdb")
    mkdirSync(building, { mode: 0o700 })
    yield* ServerAccount.give(account, building)
    return { account, scratch, building }
  }),
  ({ scratch }) => Effect.sync(() => rmSync(scratch, { recursive: true, force: true }))
)

describe("the embedded PostgreSQL's template data directory", () => {
  it.effect("is one per build of the binaries and set of initdb arguments, in node_modules/.cache", () =>
    Effect.gen(function* () {
      const binaries = yield* PostgresBinaries.load
      const template = EmbeddedTemplate.directoryFor(binaries, ["--encoding=UTF8"])
      assert.isNotNull(template)
      assert.include(template ?? "", "/node_modules/.cache/margin-service/postgres-template-")
      assert.notStrictEqual(EmbeddedTemplate.directoryFor(binaries, ["--encoding=SQL_ASCII"]), template)
      assert.strictEqual(EmbeddedTemplate.directoryFor(binaries, ["--encoding=UTF8"]), template)
      assert.isNull(
        EmbeddedTemplate.directoryFor({ initdb: "/opt/pg/bin/initdb", postgres: "/opt/pg/bin/postgres" }, [])
      )
    })
  )

  it.effect(
    "made once (npm install), is copied whole into a new data directory, owned by the server's account",
    () =>
      Effect.gen(function* () {
        yield* prepareTemplate
        const binaries = yield* PostgresBinaries.load
        const template = EmbeddedCluster.templateFor(binaries)
        assert.isNotNull(template)
        assert.isTrue(EmbeddedCluster.isInitialized(template ?? ""))
        assert.match(yield* prepareTemplate, /exists$/, "a second call keeps the one there is")
        const { account, building } = yield* buildingDirectory
        assert.isTrue(yield* EmbeddedTemplate.copy(template, building, account, binaries))
        assert.strictEqual(
          readFileSync(join(building, "PG_VERSION"), "utf8"),
          readFileSync(join(template ?? "", "PG_VERSION"), "utf8")
        )
        const owner = account._tag === "SystemUser" ? account.uid : process.getuid?.()
        for (const path of [building, join(building, "PG_VERSION"), join(building, "global", "pg_control")]) {
          assert.strictEqual(statSync(path).uid, owner, path)
        }
        assert.strictEqual(statSync(building).mode & 0o777, 0o700)
      }).pipe(Effect.scoped),
    { timeout: 120_000 }
  )

  it.effect("none, or one that is not complete, is no copy: the caller runs initdb", () =>
    Effect.gen(function* () {
      const binaries = yield* PostgresBinaries.load
      const { account, building, scratch } = yield* buildingDirectory
      assert.isFalse(yield* EmbeddedTemplate.copy(null, building, account, binaries))
      const halfMade = join(scratch, "half-made")
      mkdirSync(halfMade)
      writeFileSync(join(halfMade, "postgresql.conf"), "")
      assert.isFalse(yield* EmbeddedTemplate.copy(halfMade, building, account, binaries))
    }).pipe(Effect.scoped)
  )
})
