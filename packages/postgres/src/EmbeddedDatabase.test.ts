import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs"
import { hostname } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option, Schema, type Scope } from "effect"
import { SqlClient } from "effect/sql"
import { insertWorkspace } from "../test/WorkspaceRow.ts"
import * as Database from "./Database.ts"
import { DatabaseInfo } from "./DatabaseInfo.ts"
import * as DataDirLock from "./DataDirLock.ts"
import * as EmbeddedCluster from "./EmbeddedCluster.ts"
import * as EmbeddedDatabase from "./EmbeddedDatabase.ts"
import * as EmbeddedUsers from "./EmbeddedUsers.ts"
import * as Migrations from "./Migrations.ts"
import { runProgram } from "./RunProgram.ts"
import { emptyDataDir, initializedDataDir } from "./testing/EmbeddedDataDir.ts"

const probeScript = fileURLToPath(new URL("../test/EmbeddedProbe.ts", import.meta.url))
const ProbeOutput = Schema.fromJsonString(
  Schema.Struct({ role: Schema.NullOr(Schema.String), pid: Schema.Int, workspaces: Schema.Array(Schema.String) })
)
const decodeProbe = Schema.decodeUnknownEffect(ProbeOutput)

/** What a probe process printed, or why it ended without printing. */
const firstLine = (child: ChildProcess) =>
  Effect.callback<string, string>((resume) => {
    let stdout = ""
    let stderr = ""
    child.stdout?.on("data", (chunk) => {
      stdout += String(chunk)
      const end = stdout.indexOf("\n")
      if (end !== -1) resume(Effect.succeed(stdout.slice(0, end)))
    })
    child.stderr?.on("data", (chunk) => {
      stderr += String(chunk)
    })
    child.once("exit", (code) => resume(Effect.fail(`the probe exited with ${code}: ${stderr}`)))
  })

/** Starts EmbeddedProbe.ts in another process; it is killed with the scope if still running. */
const startProbe = (args: ReadonlyArray<string>) =>
  Effect.acquireRelease(
    Effect.sync(() => spawn(process.execPath, [probeScript, ...args], { stdio: ["ignore", "pipe", "pipe"] })),
    (child) => Effect.sync(() => child.kill("SIGKILL"))
  )

/** A probe that started or joined the server, wrote its workspace, and holds on. */
const holdingProbe = (dataDir: string, workspaceId: string) =>
  Effect.gen(function* () {
    const child = yield* startProbe([dataDir, workspaceId, "--hold"])
    return { child, output: yield* decodeProbe(yield* firstLine(child)) }
  })

const exited = (child: ChildProcess) =>
  Effect.callback<number | null>((resume) => {
    if (child.exitCode !== null || child.signalCode !== null) resume(Effect.succeed(child.exitCode))
    else child.once("exit", (code) => resume(Effect.succeed(code)))
  })

const workspaceIds = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ readonly id: string }>`SELECT id FROM workspaces ORDER BY id`
  return rows.map((row) => row.id)
})

/** Runs `effect` with the embedded database of `dataDir` open (and migrated), and leaves it after. */
const withDatabase = <A, E>(
  dataDir: string,
  effect: Effect.Effect<A, E, Database.Services | Scope.Scope>,
  options: EmbeddedDatabase.ConnectOptions = {}
) =>
  Effect.andThen(Migrations.run, effect).pipe(
    Effect.scoped,
    Effect.provide(Layer.fresh(Database.layerEmbedded(dataDir, options)))
  )

const role = DatabaseInfo.useSync((info) => info.role)

/** The server of `dataDir` as its postmaster.pid says, alive or not. */
const postmasterOf = (dataDir: string) => EmbeddedCluster.readPostmaster(EmbeddedDatabase.postgresDirectory(dataDir))

const runningServer = (dataDir: string) => EmbeddedCluster.running(EmbeddedDatabase.postgresDirectory(dataDir))

const pidAlive = (pid: number) => DataDirLock.pidAlive(pid)

/** A process that has exited: its pid names nobody (until reused, which takes far longer than a test). */
const deadPid = Effect.gen(function* () {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" })
  yield* exited(child)
  return child.pid ?? 0
})

const processTimeout = 180_000

describe("the embedded PostgreSQL", () => {
  it.live(
    "is created on first use, started, stopped when its last user leaves, and found again at the next start",
    () =>
      Effect.gen(function* () {
        const dataDir = yield* emptyDataDir
        const first = yield* withDatabase(
          dataDir,
          Effect.gen(function* () {
            yield* insertWorkspace("ws_first_start")
            const sql = yield* SqlClient.SqlClient
            const [settings] = yield* sql<{ readonly fsync: string; readonly commit: string; readonly listen: string }>`
              SELECT current_setting('fsync') AS fsync, current_setting('synchronous_commit') AS commit,
                     current_setting('listen_addresses') AS listen`
            const postmaster = yield* postmasterOf(dataDir)
            return { role: yield* role, settings, postmaster }
          })
        )
        assert.strictEqual(first.role, "started")
        // Durable, and no TCP listener at all: the unix socket in the data directory only.
        assert.deepStrictEqual(first.settings, { fsync: "on", commit: "on", listen: "" })
        assert.isTrue(Option.isSome(first.postmaster))
        if (Option.isNone(first.postmaster)) return
        assert.strictEqual(first.postmaster.value.socketDirectory, EmbeddedDatabase.postgresDirectory(dataDir))
        // Stopped at the end: no server, no postmaster.pid, no user left.
        assert.isFalse(yield* pidAlive(first.postmaster.value.pid))
        assert.isTrue(Option.isNone(yield* postmasterOf(dataDir)))
        assert.deepStrictEqual(readdirSync(EmbeddedUsers.usersDirectory(dataDir)), [])
        assert.isFalse(existsSync(DataDirLock.lockFile(dataDir)))

        const later = yield* withDatabase(dataDir, Effect.all({ role, ids: workspaceIds }))
        assert.deepStrictEqual(later, { role: "started", ids: ["ws_first_start"] })
      }),
    processTimeout
  )

  it.live(
    "runs as the account postgres when this process is root, and as this process's user otherwise",
    () =>
      Effect.gen(function* () {
        const dataDir = yield* initializedDataDir
        yield* withDatabase(dataDir, Effect.void)
        const owner = statSync(EmbeddedDatabase.postgresDirectory(dataDir)).uid
        const expected =
          process.getuid?.() === 0
            ? Number.parseInt((yield* Effect.orDie(runProgram("id", ["-u", "postgres"]))).output, 10)
            : process.getuid?.()
        assert.strictEqual(owner, expected)
      }),
    processTimeout
  )

  it.live(
    "is shared: another process joins the running server, and leaving does not stop it while others use it",
    () =>
      Effect.gen(function* () {
        const dataDir = yield* initializedDataDir
        yield* withDatabase(
          dataDir,
          Effect.gen(function* () {
            assert.strictEqual(yield* role, "started")
            yield* insertWorkspace("ws_starter")
            const probe = yield* startProbe([dataDir, "ws_joiner"])
            const output = yield* decodeProbe(yield* firstLine(probe))
            assert.strictEqual(yield* exited(probe), 0)
            assert.deepStrictEqual(output, { role: "joined", pid: output.pid, workspaces: ["ws_joiner", "ws_starter"] })
            // The probe left; the server runs on for this process, which sees what the probe wrote.
            assert.isTrue(Option.isSome(yield* runningServer(dataDir)))
            assert.deepStrictEqual(yield* workspaceIds, ["ws_joiner", "ws_starter"])
          })
        )
        assert.isTrue(Option.isNone(yield* runningServer(dataDir)))
      }),
    processTimeout
  )

  it.live(
    "outlives the process that started it while another uses it: the last one out stops it",
    () =>
      Effect.gen(function* () {
        const dataDir = yield* initializedDataDir
        const starter = yield* holdingProbe(dataDir, "ws_starter")
        assert.strictEqual(starter.output.role, "started")
        yield* withDatabase(
          dataDir,
          Effect.gen(function* () {
            assert.strictEqual(yield* role, "joined")
            // A graceful end of the process that started the server.
            starter.child.kill("SIGTERM")
            yield* exited(starter.child)
            assert.isTrue(Option.isSome(yield* runningServer(dataDir)))
            yield* insertWorkspace("ws_after_starter")
            assert.deepStrictEqual(yield* workspaceIds, ["ws_after_starter", "ws_starter"])
          })
        )
        assert.isTrue(Option.isNone(yield* runningServer(dataDir)))
      }),
    processTimeout
  )

  it.live(
    "keeps running when the process that started it is killed, and the next process joins it and stops it at the end",
    () =>
      Effect.gen(function* () {
        const dataDir = yield* initializedDataDir
        const starter = yield* holdingProbe(dataDir, "ws_killed_starter")
        assert.strictEqual(starter.output.role, "started")
        starter.child.kill("SIGKILL")
        yield* exited(starter.child)
        const orphan = yield* runningServer(dataDir)
        assert.isTrue(Option.isSome(orphan), "the server outlived its starter")
        const joined = yield* withDatabase(
          dataDir,
          Effect.all({ role, ids: workspaceIds, server: postmasterOf(dataDir) })
        )
        assert.strictEqual(joined.role, "joined")
        assert.deepStrictEqual(joined.ids, ["ws_killed_starter"])
        assert.strictEqual(Option.getOrNull(joined.server)?.pid, Option.getOrNull(orphan)?.pid, "the same server")
        assert.isTrue(Option.isNone(yield* runningServer(dataDir)), "stopped by its last user")
      }),
    processTimeout
  )

  it.live(
    "recovers from a killed server: the stale postmaster.pid is replaced and committed data is there",
    () =>
      Effect.gen(function* () {
        const dataDir = yield* initializedDataDir
        const starter = yield* holdingProbe(dataDir, "ws_committed")
        const killed = yield* postmasterOf(dataDir)
        if (Option.isNone(killed)) return assert.fail("no postmaster.pid")
        // The server dies without cleaning up, and so does the process that used it.
        process.kill(killed.value.pid, "SIGKILL")
        starter.child.kill("SIGKILL")
        yield* exited(starter.child)
        assert.strictEqual(Option.getOrNull(yield* postmasterOf(dataDir))?.pid, killed.value.pid, "stale file")
        const recovered = yield* withDatabase(
          dataDir,
          Effect.all({ role, ids: workspaceIds, server: postmasterOf(dataDir) })
        )
        assert.strictEqual(recovered.role, "started")
        assert.deepStrictEqual(recovered.ids, ["ws_committed"])
        assert.notStrictEqual(Option.getOrNull(recovered.server)?.pid, killed.value.pid)
      }),
    processTimeout
  )

  it.live(
    "takes over a lock left by a process that is gone",
    () =>
      Effect.gen(function* () {
        const dataDir = yield* initializedDataDir
        const pid = yield* deadPid
        yield* Effect.sync(() =>
          writeFileSync(
            DataDirLock.lockFile(dataDir),
            DataDirLock.encodeHolder({ pid, hostname: hostname(), startedAt: new Date(0).toISOString() })
          )
        )
        assert.strictEqual(yield* withDatabase(dataDir, role), "started")
      }),
    processTimeout
  )

  it.live("says which process holds the lock when it keeps it too long", () =>
    Effect.gen(function* () {
      const dataDir = yield* emptyDataDir
      const holder = { pid: process.pid, hostname: hostname(), startedAt: "2030-01-01T00:00:00.000Z" }
      yield* Effect.sync(() => writeFileSync(DataDirLock.lockFile(dataDir), DataDirLock.encodeHolder(holder)))
      const error = yield* Effect.flip(withDatabase(dataDir, Effect.void, { lockTimeout: "300 millis" }))
      assert.strictEqual(error._tag, "DatabaseUnavailable")
      assert.strictEqual(
        error.message,
        `process ${process.pid} (${hostname()}) has held ${DataDirLock.lockFile(dataDir)} since 2030-01-01T00:00:00.000Z: ` +
          "if no margin process is starting or stopping the embedded database, remove that file"
      )
      assert.isFalse(existsSync(EmbeddedDatabase.postgresDirectory(dataDir)), "nothing created")
    })
  )

  it.live("refuses a DATA_DIR of the PGlite version in one line, touching nothing", () =>
    Effect.gen(function* () {
      const dataDir = yield* emptyDataDir
      yield* Effect.sync(() => {
        mkdirSync(EmbeddedDatabase.pgliteDirectory(dataDir))
        writeFileSync(join(EmbeddedDatabase.pgliteDirectory(dataDir), "PG_VERSION"), "17\n")
      })
      const error = yield* Effect.flip(withDatabase(dataDir, Effect.void))
      assert.strictEqual(
        error.message,
        `DATA_DIR ${dataDir} holds a database of the PGlite version of margin-service, which this version cannot open: ` +
          `move it aside (mv ${dataDir} ${dataDir}.pglite) and start again on a fresh embedded PostgreSQL`
      )
      assert.notInclude(error.message, "\n")
      assert.deepStrictEqual(readdirSync(dataDir), ["pglite"])
    })
  )
})
