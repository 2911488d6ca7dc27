import { spawn } from "node:child_process"
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs"
import { basename, join } from "node:path"
import { Clock, Duration, Effect, Option } from "effect"
import { DatabaseUnavailable } from "./DatabaseErrors.ts"
import { fsRun, fsTry, pidAlive, removeFile } from "./DataDirLock.ts"
import * as EmbeddedTemplate from "./EmbeddedTemplate.ts"
import type { PostgresBinaries } from "./PostgresBinaries.ts"
import { programEnvironment, runProgram, tailOf } from "./RunProgram.ts"
import * as ServerAccount from "./ServerAccount.ts"

/**
 * One PostgreSQL data directory and its server process: initdb, start, find, stop. Who may do
 * which, and when, is EmbeddedDatabase's business; this file only runs the programs.
 *
 * The server is started detached (its own session, its output in `startup.log`, then its own
 * log files), so it outlives the process that started it: other processes share it, and a
 * process that is killed leaves it running for the next one to find. It listens on a unix
 * socket only (`listen_addresses` is empty): nothing reaches it over the network.
 */

/** The server of a data directory, as its `postmaster.pid` describes it. */
export interface Postmaster {
  readonly pid: number
  readonly socketDirectory: string
  readonly port: number
  /** `starting`, `ready`, `stopping` or `standby`. */
  readonly state: string
}

/** The database superuser initdb creates; local connections need no password (see `initialize`). */
export const superuser = "postgres"

/** The port number names the socket file (`.s.PGSQL.<port>`); no TCP port is opened. */
export const socketPort = 5432

export const socketFile = (postmaster: Pick<Postmaster, "socketDirectory" | "port">): string =>
  join(postmaster.socketDirectory, `.s.PGSQL.${postmaster.port}`)

export const isInitialized = (pgdata: string): boolean => existsSync(join(pgdata, "PG_VERSION"))

/** How initdb makes a data directory (see `initialize`); a template made with other arguments is not used. */
const initdbArguments: ReadonlyArray<string> = [
  `--username=${superuser}`,
  "--encoding=UTF8",
  "--locale=C",
  "--locale-provider=builtin",
  "--builtin-locale=C.UTF-8",
  "--auth-local=trust",
  "--auth-host=scram-sha-256",
  "--no-instructions"
]

/** This checkout's template data directory for `binaries` (EmbeddedTemplate), complete or not; null when it has none. */
export const templateFor = (binaries: PostgresBinaries): string | null =>
  EmbeddedTemplate.directoryFor(binaries, initdbArguments)

/**
 * Creates the data directory `pgdata`: UTF-8, the builtin C.UTF-8 locale (the same ordering and
 * case mapping on every machine, no OS locale needed), the superuser `postgres` without a password
 * for local (unix socket) connections, which only the account that owns the socket's directory can
 * reach. A copy of the checkout's template when there is one (EmbeddedTemplate: a fraction of
 * initdb's time), else initdb, whose result becomes the template. It is built beside `pgdata`,
 * written to disk and renamed into place, so a crash while it is made leaves no half-made data
 * directory.
 */
export const initialize = (
  pgdata: string,
  account: ServerAccount.ServerAccount,
  binaries: PostgresBinaries
): Effect.Effect<void, DatabaseUnavailable> =>
  Effect.gen(function* () {
    const building = `${pgdata}.initdb`
    const prepare = Effect.gen(function* () {
      yield* fsRun(`prepare ${building}`, () => {
        rmSync(building, { recursive: true, force: true })
        mkdirSync(building, { mode: 0o700 })
      })
      yield* ServerAccount.give(account, building)
    })
    yield* prepare
    const template = templateFor(binaries)
    if (!(yield* EmbeddedTemplate.copy(template, building, account, binaries))) {
      // A failed copy may have left files behind.
      yield* prepare
      const outcome = yield* runProgram(
        binaries.initdb,
        [`--pgdata=${building}`, ...initdbArguments, ...EmbeddedTemplate.syncArguments],
        { ...ServerAccount.identity(account), env: programEnvironment() }
      ).pipe(
        Effect.mapError(
          (cause) => new DatabaseUnavailable({ message: `cannot run ${binaries.initdb}: ${cause.message}`, cause })
        )
      )
      if (outcome.code !== 0) {
        yield* Effect.ignore(fsRun(`remove ${building}`, () => rmSync(building, { recursive: true, force: true })))
        return yield* new DatabaseUnavailable({
          message: `initdb could not create ${pgdata} (exit ${outcome.code}): ${hintFor(outcome.output)}${tailOf(outcome.output)}`
        })
      }
      yield* EmbeddedTemplate.keep(building, template)
    }
    yield* fsRun(`move ${building} to ${pgdata}`, () => renameSync(building, pgdata))
  })

/** What to do about failures whose cause is not the data directory's. */
const hintFor = (output: string): string =>
  output.includes("error while loading shared libraries")
    ? "the PostgreSQL binaries are incomplete (npm skipped their postinstall: is the package named in the root package.json's allowScripts? then run npm rebuild): "
    : ""

/** `postmaster.pid` of `pgdata`, read: None when there is none (no server, or it is being written). */
export const readPostmaster = (pgdata: string): Effect.Effect<Option.Option<Postmaster>, DatabaseUnavailable> =>
  Effect.map(
    fsTry(`read ${join(pgdata, "postmaster.pid")}`, () => readFileSync(join(pgdata, "postmaster.pid"), "utf8"), [
      "ENOENT"
    ]),
    Option.flatMap((text) => {
      // pid, data directory, start time, port, socket directory, listen address, shared memory key, state.
      const lines = text.split("\n")
      const pid = Number.parseInt(lines[0] ?? "", 10)
      const port = Number.parseInt(lines[3] ?? "", 10)
      const socketDirectory = (lines[4] ?? "").trim()
      const state = (lines[7] ?? "").trim()
      return Number.isSafeInteger(pid) && pid > 0 && Number.isSafeInteger(port)
        ? Option.some({ pid, port, socketDirectory, state: state === "" ? "starting" : state })
        : Option.none()
    })
  )

/**
 * What process `pid` is now: a PostgreSQL server, gone, a zombie (killed, not yet reaped: it
 * still counts as alive for PostgreSQL's own lock checks), or another program (the pid was
 * reused after a reboot). Linux tells by /proc; elsewhere a live pid is taken for the server.
 */
const processKind = (pid: number): Effect.Effect<"postgres" | "gone" | "zombie" | "other"> =>
  Effect.gen(function* () {
    if (!(yield* pidAlive(pid))) return "gone"
    if (process.platform !== "linux") return "postgres"
    const read = (file: string) =>
      Effect.map(
        Effect.orElseSucceed(
          fsTry(`read /proc/${pid}/${file}`, () => readFileSync(`/proc/${pid}/${file}`, "utf8"), ["ENOENT", "ESRCH"]),
          () => Option.none<string>()
        ),
        Option.getOrUndefined
      )
    const stat = yield* read("stat")
    if (stat === undefined) return "gone"
    // pid (comm) state ...: the state follows the last parenthesis.
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3)
    if (state === "Z" || state === "X") return "zombie"
    const program = (yield* read("cmdline"))?.split("\0")[0] ?? ""
    return /^postgres\b/.test(basename(program)) ? "postgres" : "other"
  })

/**
 * The server running on `pgdata`, if any. A `postmaster.pid` whose process is gone is stale:
 * PostgreSQL replaces it when it starts (and recovers from its WAL). A killed server that is not
 * reaped yet is waited for. A pid that now belongs to another program (after a reboot) makes the
 * file and the socket's lock stale too: they are removed here, as PostgreSQL would refuse to start.
 */
export const running = (pgdata: string): Effect.Effect<Option.Option<Postmaster>, DatabaseUnavailable> =>
  Effect.gen(function* () {
    const postmaster = yield* readPostmaster(pgdata)
    if (Option.isNone(postmaster)) return postmaster
    const { pid, socketDirectory } = postmaster.value
    const kind = yield* processKind(pid)
    if (kind === "postgres") return postmaster
    if (kind === "zombie") {
      yield* pollUntil(
        Effect.map(processKind(pid), (now) => (now === "zombie" ? Option.none() : Option.some(now))),
        "30 seconds",
        () => new DatabaseUnavailable({ message: `the killed PostgreSQL server ${pid} of ${pgdata} is not reaped` })
      )
      return Option.none()
    }
    if (kind === "other") {
      yield* Effect.logWarning(`${pgdata}/postmaster.pid names process ${pid}, which is not PostgreSQL: removing it`)
      yield* removeFile(join(pgdata, "postmaster.pid"))
      if (socketDirectory !== "") yield* removeFile(`${socketFile(postmaster.value)}.lock`)
    }
    return Option.none()
  })

const millis = (input: Duration.Input) => Duration.toMillis(Duration.fromInputUnsafe(input))

/** Polls `check` every 50 ms until it gives a value, or fails with `timedOut` after `within`. */
const pollUntil = <A, E>(
  check: Effect.Effect<Option.Option<A>, E>,
  within: Duration.Input,
  timedOut: () => DatabaseUnavailable
): Effect.Effect<A, E | DatabaseUnavailable> =>
  Effect.gen(function* () {
    const deadline = (yield* Clock.currentTimeMillis) + millis(within)
    while (true) {
      const found = yield* check
      if (Option.isSome(found)) return found.value
      if ((yield* Clock.currentTimeMillis) > deadline) return yield* timedOut()
      yield* Effect.sleep("50 millis")
    }
  })

type Outcome =
  | { readonly _tag: "Ready"; readonly postmaster: Postmaster }
  | { readonly _tag: "Exited"; readonly log: string }

/** Waits until the server `pid` of `pgdata` accepts connections (its state `ready`), or is gone. */
const outcomeOf = (pgdata: string, pid: number, within: Duration.Input): Effect.Effect<Outcome, DatabaseUnavailable> =>
  pollUntil(
    Effect.gen(function* () {
      const postmaster = yield* readPostmaster(pgdata)
      if (Option.isSome(postmaster) && postmaster.value.pid === pid && postmaster.value.state === "ready") {
        return Option.some<Outcome>({ _tag: "Ready", postmaster: postmaster.value })
      }
      if (!(yield* pidAlive(pid))) return Option.some<Outcome>({ _tag: "Exited", log: yield* logTail(pgdata) })
      return Option.none<Outcome>()
    }),
    within,
    () =>
      new DatabaseUnavailable({
        message: `the embedded PostgreSQL server of ${pgdata} (process ${pid}) is not ready after ${Duration.format(Duration.fromInputUnsafe(within))}`
      })
  )

const exitedWhileStarting = (pgdata: string, pid: number, log: string) =>
  new DatabaseUnavailable({
    message: `the embedded PostgreSQL server of ${pgdata} (process ${pid}) stopped while starting: ${log}`
  })

/** Waits until the server `pid` of `pgdata`, which another process started, accepts connections. */
export const awaitReady = (
  pgdata: string,
  pid: number,
  within: Duration.Input = "2 minutes"
): Effect.Effect<Postmaster, DatabaseUnavailable> =>
  Effect.flatMap(outcomeOf(pgdata, pid, within), (outcome) =>
    outcome._tag === "Ready"
      ? Effect.succeed(outcome.postmaster)
      : Effect.fail(exitedWhileStarting(pgdata, pid, outcome.log))
  )

/**
 * What PostgreSQL says when processes of a server that was killed are still there: a zombie that
 * holds the socket's lock, backends that have not yet noticed and still hold the shared memory.
 * They go within moments.
 */
const leftoversOfAKilledServer = /lock file ".*" already exists|pre-existing shared memory block .* is still in use/

/** The end of the server's start-up output and of its newest log file, for a message. */
export const logTail = (pgdata: string): Effect.Effect<string> =>
  Effect.sync(() => {
    const read = (path: string) => (existsSync(path) ? readFileSync(path, "utf8") : "")
    const logs = existsSync(join(pgdata, "log")) ? readdirSync(join(pgdata, "log")).sort() : []
    const newest = logs.at(-1)
    const text = `${read(join(pgdata, "startup.log"))}\n${newest === undefined ? "" : read(join(pgdata, "log", newest))}`
    return tailOf(text) === "" ? "it wrote nothing" : tailOf(text)
  }).pipe(Effect.orElseSucceed(() => "its log cannot be read"))

export interface StartOptions {
  readonly account: ServerAccount.ServerAccount
  readonly binaries: PostgresBinaries
  /** Where the socket goes: a directory only the server's account (and root) can enter. */
  readonly socketDirectory: string
  /** Settings on top of the data directory's postgresql.conf. */
  readonly settings: Readonly<Record<string, string>>
}

/** A list element of a GUC list (`unix_socket_directories`), quoted. */
const quoted = (value: string) => `"${value.replaceAll('"', '""')}"`

/**
 * Settings every embedded server runs with: a unix socket only; log files that rotate within a
 * week; and no processes it has no use for (the I/O workers of PostgreSQL 18's asynchronous I/O,
 * the logical replication launcher), about 20 MB less resident memory.
 */
const baseSettings = (socketDirectory: string): Record<string, string> => ({
  listen_addresses: "",
  io_method: "sync",
  max_logical_replication_workers: "0",
  unix_socket_directories: quoted(socketDirectory),
  unix_socket_permissions: "0700",
  logging_collector: "on",
  log_directory: "log",
  log_filename: "postgresql-%a.log",
  log_truncate_on_rotation: "on",
  log_rotation_age: "1d",
  log_rotation_size: "0"
})

/**
 * Starts the server of `pgdata` in the background and waits until it accepts connections. It is
 * detached: it keeps running when this process exits, until `stop`.
 */
export const start = (pgdata: string, options: StartOptions): Effect.Effect<Postmaster, DatabaseUnavailable> =>
  Effect.gen(function* () {
    const startupLog = join(pgdata, "startup.log")
    const settings = { ...baseSettings(options.socketDirectory), ...options.settings }
    const args = [
      "-D",
      pgdata,
      "-p",
      String(socketPort),
      ...Object.entries(settings).flatMap(([name, value]) => ["-c", `${name}=${value}`])
    ]
    const spawnServer = Effect.acquireUseRelease(
      fsRun(`open ${startupLog}`, () => openSync(startupLog, "w", 0o600)),
      (descriptor) =>
        Effect.gen(function* () {
          yield* ServerAccount.give(options.account, startupLog)
          return yield* fsRun(`start ${options.binaries.postgres}`, () => {
            const child = spawn(options.binaries.postgres, args, {
              detached: true,
              stdio: ["ignore", descriptor, descriptor],
              env: programEnvironment(),
              ...ServerAccount.identity(options.account)
            })
            // Its exit is noticed through its pid; this process must not wait for it.
            child.on("error", () => undefined)
            child.unref()
            return child.pid ?? 0
          })
        }),
      (descriptor) => Effect.ignore(fsRun(`close ${startupLog}`, () => closeSync(descriptor)))
    )
    const deadline = (yield* Clock.currentTimeMillis) + millis("15 seconds")
    while (true) {
      const pid = yield* spawnServer
      if (pid === 0) {
        return yield* new DatabaseUnavailable({
          message: `cannot start ${options.binaries.postgres} (is the package installed for this platform?)`
        })
      }
      const outcome = yield* outcomeOf(pgdata, pid, "2 minutes")
      if (outcome._tag === "Ready") return outcome.postmaster
      if (!leftoversOfAKilledServer.test(outcome.log) || (yield* Clock.currentTimeMillis) > deadline) {
        return yield* exitedWhileStarting(pgdata, pid, outcome.log)
      }
      yield* Effect.sleep("250 millis")
    }
  })

/**
 * Stops the server `postmaster` of `pgdata` with a fast shutdown (open transactions roll back,
 * sessions end, a checkpoint writes everything down) and waits until it is gone. A server that
 * does not stop within a minute gets an immediate shutdown (recovered from the WAL at the next start).
 */
export const stop = (pgdata: string, postmaster: Postmaster): Effect.Effect<void, DatabaseUnavailable> =>
  Effect.gen(function* () {
    const signal = (name: NodeJS.Signals) =>
      Effect.ignore(fsTry(`signal ${postmaster.pid}`, () => process.kill(postmaster.pid, name), ["ESRCH"]))
    yield* signal("SIGINT")
    if (yield* awaitGone(postmaster.pid, "1 minute")) return
    yield* Effect.logWarning(`the embedded PostgreSQL server ${postmaster.pid} of ${pgdata} does not stop: quitting it`)
    yield* signal("SIGQUIT")
    if (yield* awaitGone(postmaster.pid, "30 seconds")) return
    return yield* new DatabaseUnavailable({ message: `the embedded PostgreSQL server ${postmaster.pid} does not stop` })
  })

/** Waits until process `pid` is gone: true, or false when it is still there after `within`. */
export const awaitGone = (pid: number, within: Duration.Input): Effect.Effect<boolean> =>
  Effect.gen(function* () {
    const deadline = (yield* Clock.currentTimeMillis) + millis(within)
    while (yield* pidAlive(pid)) {
      if ((yield* Clock.currentTimeMillis) > deadline) return false
      yield* Effect.sleep("50 millis")
    }
    return true
  })
