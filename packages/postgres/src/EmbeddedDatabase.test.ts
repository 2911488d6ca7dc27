import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { hostname } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Schedule, Schema, type Scope } from "effect"
import { SqlClient } from "effect/sql"
import { insertWorkspace } from "../test/WorkspaceRow.ts"
import * as Database from "./Database.ts"
import { DatabaseInfo } from "./DatabaseInfo.ts"
import * as DataDirLock from "./DataDirLock.ts"
import type * as EmbeddedDatabase from "./EmbeddedDatabase.ts"
import { migratedDataDir } from "./testing/TestDatabase.ts"

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

/** Runs `effect` with the embedded database of `dataDir` open, and closes it after. */
const withDatabase = <A, E>(
  dataDir: string,
  effect: Effect.Effect<A, E, Database.Services | Scope.Scope>,
  options: EmbeddedDatabase.ConnectOptions = { answerTimeout: "1 second" }
) => effect.pipe(Effect.provide(Layer.fresh(Database.layerEmbedded(dataDir, options))))

const role = Effect.gen(function* () {
  return (yield* DatabaseInfo).role
})

/** A process that has exited: its pid names nobody (until reused, which takes far longer than a test). */
const deadPid = Effect.gen(function* () {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" })
  yield* exited(child)
  return child.pid ?? 0
})

const writeLock = (dataDir: string, holder: DataDirLock.Holder) =>
  Effect.sync(() => writeFileSync(DataDirLock.lockFile(dataDir), JSON.stringify(holder)))

describe("the embedded database", () => {
  it.live(
    "keeps its data across a restart, and releases its lock and socket when closed",
    () =>
      Effect.gen(function* () {
        const dataDir = yield* migratedDataDir
        const first = yield* withDatabase(dataDir, Effect.andThen(insertWorkspace("ws_before_restart"), role))
        assert.strictEqual(first, "owner")
        assert.isFalse(existsSync(DataDirLock.lockFile(dataDir)))
        assert.isFalse(existsSync(join(dataDir, "pglite.sock")))
        assert.deepStrictEqual(yield* withDatabase(dataDir, workspaceIds), ["ws_before_restart"])
      }),
    120_000
  )

  it.live(
    "lets a second process work through the socket while the first one runs",
    () =>
      Effect.gen(function* () {
        const dataDir = yield* migratedDataDir
        yield* withDatabase(
          dataDir,
          Effect.gen(function* () {
            yield* insertWorkspace("ws_owner")
            const probe = yield* startProbe([dataDir, "ws_attached"])
            const output = yield* decodeProbe(yield* firstLine(probe))
            assert.strictEqual(yield* exited(probe), 0)
            assert.deepStrictEqual(output.role, "attached")
            assert.deepStrictEqual(output.workspaces, ["ws_attached", "ws_owner"])
            // The owner sees what the other process wrote, and still owns the files.
            assert.deepStrictEqual(yield* workspaceIds, ["ws_attached", "ws_owner"])
            const lock = JSON.parse(readFileSync(DataDirLock.lockFile(dataDir), "utf8"))
            assert.strictEqual(lock.pid, process.pid)
          })
        )
      }),
    120_000
  )

  it.live(
    "recovers the lock of an owner that was killed, with the data it committed",
    () =>
      Effect.gen(function* () {
        const dataDir = yield* migratedDataDir
        const owner = yield* startProbe([dataDir, "ws_killed_owner", "--hold"])
        const output = yield* decodeProbe(yield* firstLine(owner))
        assert.strictEqual(output.role, "owner")
        // This process attaches while the other one owns the files...
        yield* withDatabase(
          dataDir,
          Effect.gen(function* () {
            assert.strictEqual(yield* role, "attached")
            yield* insertWorkspace("ws_through_socket")
          })
        )
        // ...then the owner dies without cleaning up.
        owner.kill("SIGKILL")
        yield* exited(owner)
        const lock = JSON.parse(readFileSync(DataDirLock.lockFile(dataDir), "utf8"))
        assert.strictEqual(lock.pid, output.pid)
        const recovered = yield* withDatabase(dataDir, Effect.all({ role, ids: workspaceIds }))
        assert.deepStrictEqual(recovered, { role: "owner", ids: ["ws_killed_owner", "ws_through_socket"] })
      }),
    120_000
  )

  it.live(
    "takes the place of an owner that died while this process was attached, and its queries carry on",
    () =>
      Effect.gen(function* () {
        const dataDir = yield* migratedDataDir
        const owner = yield* startProbe([dataDir, "ws_first_owner", "--hold"])
        assert.strictEqual((yield* decodeProbe(yield* firstLine(owner))).role, "owner")
        yield* withDatabase(
          dataDir,
          Effect.gen(function* () {
            assert.strictEqual(yield* role, "attached")
            owner.kill("SIGKILL")
            yield* exited(owner)
            // Queries fail until this process has opened the files and serves them on the same socket.
            const ids = yield* workspaceIds.pipe(Effect.retry({ schedule: Schedule.spaced("200 millis"), times: 150 }))
            assert.deepStrictEqual(ids, ["ws_first_owner"])
            yield* insertWorkspace("ws_successor")
            const lock = JSON.parse(readFileSync(DataDirLock.lockFile(dataDir), "utf8"))
            assert.strictEqual(lock.pid, process.pid)
          })
        )
        assert.isFalse(existsSync(DataDirLock.lockFile(dataDir)))
        assert.deepStrictEqual(yield* withDatabase(dataDir, workspaceIds), ["ws_first_owner", "ws_successor"])
      }),
    120_000
  )

  it.live(
    "takes over a lock left by a process that is gone",
    () =>
      Effect.gen(function* () {
        const dataDir = yield* migratedDataDir
        const pid = yield* deadPid
        yield* writeLock(dataDir, { pid, hostname: hostname(), startedAt: new Date(0).toISOString(), socket: null })
        assert.strictEqual(yield* withDatabase(dataDir, role), "owner")
      }),
    120_000
  )

  it.live("says so, without touching the files, when the owner does not answer", () =>
    Effect.gen(function* () {
      const dataDir = yield* migratedDataDir
      // A live process (this one) holds the lock, but nothing listens on its socket.
      const socket = join(dataDir, "nobody.sock")
      yield* writeLock(dataDir, { pid: process.pid, hostname: hostname(), startedAt: "then", socket })
      const error = yield* Effect.flip(withDatabase(dataDir, Effect.void))
      assert.strictEqual(error._tag, "DatabaseUnavailable")
      assert.include(error.message, `in use by process ${process.pid}`)
      assert.include(error.message, socket)
      assert.include(error.message, `remove ${DataDirLock.lockFile(dataDir)}`)
      assert.strictEqual(JSON.parse(readFileSync(DataDirLock.lockFile(dataDir), "utf8")).socket, socket)
    })
  )

  it.live("says so when the owner does not finish starting", () =>
    Effect.gen(function* () {
      const dataDir = yield* migratedDataDir
      yield* writeLock(dataDir, { pid: process.pid, hostname: hostname(), startedAt: "then", socket: null })
      const error = yield* Effect.flip(withDatabase(dataDir, Effect.void, { readyTimeout: "300 millis" }))
      assert.include(error.message, `is being opened by process ${process.pid}`)
    })
  )
})
