import { resolve } from "node:path"
import { Config, Effect, Option, Redacted } from "effect"
import { DatabaseConfigError } from "./DatabaseErrors.ts"

/**
 * Where the data lives:
 * - `Postgres`: DATABASE_URL names a PostgreSQL server (production).
 * - `Embedded`: no DATABASE_URL; an embedded PostgreSQL server keeps its files in DATA_DIR
 *   (default `./.data`), started by the first process that needs it and shared by the others
 *   (EmbeddedDatabase). It is durable (fsync on), but one machine's directory: production
 *   runs on a PostgreSQL server it can back up and fail over.
 */
export type DatabaseConfig =
  | { readonly _tag: "Postgres"; readonly url: Redacted.Redacted<string> }
  | { readonly _tag: "Embedded"; readonly dataDir: string }

export const defaultDataDir = "./.data"

/** DATA_DIR as set (default ./.data): where the embedded database, and the processes' other files, live. */
export const dataDirVariable: Config.Config<string> = Config.String("DATA_DIR").pipe(Config.withDefault(defaultDataDir))

const example = "postgres://user:password@host:5432/database"

/** Checks a DATABASE_URL without ever putting the URL (and its password) into the message. */
export const validatePostgresUrl = (raw: string): Effect.Effect<Redacted.Redacted<string>, DatabaseConfigError> => {
  const invalid = (why: string) =>
    Effect.fail(new DatabaseConfigError({ message: `DATABASE_URL ${why}: expected a URL like ${example}` }))
  if (raw.trim() === "") return invalid("is set but blank (unset it to use the embedded database)")
  if (!URL.canParse(raw)) return invalid("is not a URL")
  const url = new URL(raw)
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    return invalid(`has the scheme "${url.protocol.slice(0, -1)}", not postgres or postgresql`)
  }
  if (url.hostname === "" && !url.searchParams.has("host")) return invalid("names no host")
  return Effect.succeed(Redacted.make(raw))
}

/** Reads DATABASE_URL and DATA_DIR; a variable set to the empty string counts as unset. */
export const load: Effect.Effect<DatabaseConfig, DatabaseConfigError | Config.ConfigError> = Effect.gen(function* () {
  const url = yield* Config.option(Config.String("DATABASE_URL"))
  if (Option.isSome(url)) {
    return { _tag: "Postgres", url: yield* validatePostgresUrl(url.value) } as const
  }
  const dataDir = yield* dataDirVariable
  if (dataDir.trim() === "") {
    return yield* new DatabaseConfigError({ message: `DATA_DIR is set but blank: unset it to use ${defaultDataDir}` })
  }
  return { _tag: "Embedded", dataDir: resolve(dataDir) } as const
})
