import { resolve } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Redacted } from "effect"
import * as DatabaseConfig from "./DatabaseConfig.ts"

const loadFrom = (env: Record<string, string>) =>
  DatabaseConfig.load.pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnvRecord(env)))

describe("DatabaseConfig", () => {
  it.effect("uses PostgreSQL when DATABASE_URL is set", () =>
    Effect.gen(function* () {
      const config = yield* loadFrom({
        DATABASE_URL: "postgres://app:secret@db.internal:5432/margin",
        DATA_DIR: "/ignored"
      })
      assert.strictEqual(config._tag, "Postgres")
      if (config._tag === "Postgres")
        assert.strictEqual(Redacted.value(config.url), "postgres://app:secret@db.internal:5432/margin")
    })
  )

  it.effect("accepts postgresql:// and a unix socket host", () =>
    Effect.gen(function* () {
      const config = yield* loadFrom({ DATABASE_URL: "postgresql://app@localhost/margin?host=/var/run/postgresql" })
      assert.strictEqual(config._tag, "Postgres")
    })
  )

  it.effect("uses the embedded database in DATA_DIR, ./.data by default, as an absolute path", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual(yield* loadFrom({}), { _tag: "Embedded", dataDir: resolve(".data") })
      assert.deepStrictEqual(yield* loadFrom({ DATA_DIR: "/srv/margin" }), { _tag: "Embedded", dataDir: "/srv/margin" })
    })
  )

  it.effect("refuses a DATABASE_URL that is not a PostgreSQL URL, naming it without its password", () =>
    Effect.gen(function* () {
      const cases = [
        ["mysql://app:hunter2@db:3306/margin", `has the scheme "mysql", not postgres or postgresql`],
        ["hunter2 at db.internal", "is not a URL"],
        ["postgres://app:hunter2@/margin", "is not a URL"],
        ["postgres:///margin?password=hunter2", "names no host"],
        ["  ", "is set but blank"]
      ] as const
      for (const [url, why] of cases) {
        const error = yield* Effect.flip(loadFrom({ DATABASE_URL: url }))
        assert.strictEqual(error._tag, "DatabaseConfigError")
        assert.include(error.message, `DATABASE_URL ${why}`)
        assert.include(error.message, "postgres://user:password@host:5432/database")
        assert.notInclude(error.message, "hunter2")
      }
    })
  )

  it.effect("takes empty variables as unset, and refuses blank ones", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual(yield* loadFrom({ DATABASE_URL: "", DATA_DIR: "" }), {
        _tag: "Embedded",
        dataDir: resolve(".data")
      })
      const error = yield* Effect.flip(loadFrom({ DATA_DIR: "  " }))
      assert.include(error.message, "DATA_DIR is set but blank")
    })
  )
})
