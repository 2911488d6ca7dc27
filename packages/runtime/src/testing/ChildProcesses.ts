import { type ChildProcess, spawn } from "node:child_process"
import { closeSync, openSync, readFileSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Deferred, Duration, Effect, Schedule, type Scope } from "effect"

/**
 * The service's own processes for fault tests and benchmarks: the REST server (apps/http), the
 * MCP server (apps/mcp) and workers (apps/worker) as real child processes of the current Node, on
 * 127.0.0.1, configured by their environment as in production; and other programs the tests need
 * (redis-server). Every child is killed when its scope closes.
 */

const root = new URL("../../../../", import.meta.url).pathname
export const restMain = join(root, "apps/http/src/main.ts")
/** `npm start`'s entry: the REST server with the demo seed before it serves. */
export const npmStartMain = join(root, "apps/http/src/start.ts")
export const workerMain = join(root, "apps/worker/src/main.ts")
export const mcpMain = join(root, "apps/mcp/src/main.ts")

export interface ExitStatus {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
}

export interface Child {
  readonly name: string
  readonly pid: number
  /** Everything the process wrote so far, stdout and stderr interleaved. */
  readonly output: Effect.Effect<string>
  /** Waits for the process to exit. */
  readonly exited: Effect.Effect<ExitStatus>
  /** Waits until `check` holds (polled); a process that exits first, or a timeout, is a defect. */
  readonly waitUntil: <E, R>(
    check: Effect.Effect<boolean, E, R>,
    what: string,
    within: Duration.Input
  ) => Effect.Effect<void, never, R>
  /** Waits until the output matches `pattern`. */
  readonly waitForOutput: (pattern: RegExp, within?: Duration.Input) => Effect.Effect<void>
  /** SIGTERM (a graceful stop), then SIGKILL if it has not exited within `grace`. */
  readonly terminate: (grace?: Duration.Input) => Effect.Effect<ExitStatus>
  /** `kill -9`: no finalizer runs, nothing is recorded. */
  readonly kill9: Effect.Effect<ExitStatus>
}

/** Where a child's output goes. */
export interface OutputOptions {
  /**
   * A file that receives the child's stdout and stderr, read back by `output`; by default they come
   * through pipes into this process. A benchmark's servers write to a file, so that the process that
   * generates the load does not also read their logs (one line per request) while it measures.
   */
  readonly outputFile?: string
}

// Children share compiled code between runs: module loading is most of a start.
const compileCache = join(tmpdir(), "margin-node-compile-cache")

/** Settings of the environment a child must not inherit from the test run (each test sets its own). */
const isInheritedSetting = (key: string) =>
  !/^(DATABASE_URL|DATA_DIR|PORT|HOST|REDIS_URL|RATE_LIMIT_|MCP_|SANDBOX_|WRITE_BACK_|OUTBOX_|RUN_|SHOPIFY_|WORKER_METRICS_PORT|METRICS_TOKEN|OTEL_)/.test(
    key
  )

const tail = (text: string) => text.slice(-4000)

/**
 * Starts `script` with the Node running this process. A worker serves no /metrics unless the test
 * gives it a WORKER_METRICS_PORT: several at once would want the default port.
 */
export const spawnNode = (
  name: string,
  script: string,
  env: Readonly<Record<string, string>>,
  options: OutputOptions = {}
): Effect.Effect<Child, never, Scope.Scope> =>
  spawnProgram(
    name,
    process.execPath,
    [script],
    {
      NODE_COMPILE_CACHE: compileCache,
      LOG_LEVEL: "Info",
      WORKER_METRICS_PORT: "0",
      ...env
    },
    options
  )

/** Starts `command` with `args`, in the test run's environment less the service's settings, plus `env`. */
export const spawnProgram = (
  name: string,
  command: string,
  args: ReadonlyArray<string>,
  env: Readonly<Record<string, string>>,
  options: OutputOptions = {}
): Effect.Effect<Child, never, Scope.Scope> =>
  Effect.gen(function* () {
    const exit = yield* Deferred.make<ExitStatus>()
    const chunks: Array<string> = []
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => isInheritedSetting(key)))
    const outputFile = options.outputFile
    const child: ChildProcess = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const descriptor = outputFile === undefined ? undefined : openSync(outputFile, "a")
        const started = spawn(command, args, {
          env: { ...inherited, ...env },
          stdio: descriptor === undefined ? ["ignore", "pipe", "pipe"] : ["ignore", descriptor, descriptor]
        })
        // The child holds its own copy of the file's descriptor.
        if (descriptor !== undefined) closeSync(descriptor)
        // Without pipes (an output file) there are no streams to read.
        started.stdout?.on("data", (chunk: Buffer) => chunks.push(chunk.toString("utf8")))
        started.stderr?.on("data", (chunk: Buffer) => chunks.push(chunk.toString("utf8")))
        started.on("exit", (code, signal) => Deferred.doneUnsafe(exit, Effect.succeed({ code, signal })))
        return started
      }),
      (started) =>
        Effect.gen(function* () {
          if (yield* Deferred.isDone(exit)) return
          started.kill("SIGKILL")
          yield* Deferred.await(exit)
        })
    )
    const output = Effect.sync(() => (outputFile === undefined ? chunks.join("") : readFileSync(outputFile, "utf8")))
    const exited = Deferred.await(exit)
    const kill = (signal: NodeJS.Signals) =>
      Effect.flatMap(Deferred.isDone(exit), (done) => (done ? Effect.void : Effect.sync(() => child.kill(signal))))

    const waitUntil = <E, R>(check: Effect.Effect<boolean, E, R>, what: string, within: Duration.Input) =>
      Effect.gen(function* () {
        if (yield* check) return
        if (yield* Deferred.isDone(exit)) {
          const status = yield* exited
          return yield* Effect.die(
            `${name} exited (${status.code ?? status.signal}) before ${what}:\n${tail(yield* output)}`
          )
        }
        return yield* Effect.fail("not yet" as const)
      }).pipe(
        Effect.retry(Schedule.spaced(Duration.millis(50))),
        Effect.timeoutOrElse({
          duration: within,
          orElse: () =>
            Effect.flatMap(output, (text) =>
              Effect.die(
                `${name}: no ${what} within ${Duration.format(Duration.fromInputUnsafe(within))}:\n${tail(text)}`
              )
            )
        }),
        Effect.orDie
      )

    const terminate = (grace: Duration.Input = Duration.seconds(15)) =>
      Effect.gen(function* () {
        yield* kill("SIGTERM")
        return yield* exited.pipe(
          Effect.timeoutOrElse({ duration: grace, orElse: () => Effect.andThen(kill("SIGKILL"), exited) })
        )
      })

    return {
      name,
      pid: child.pid ?? 0,
      output,
      exited,
      waitUntil,
      waitForOutput: (pattern, within = Duration.seconds(60)) =>
        waitUntil(
          Effect.map(output, (text) => pattern.test(text)),
          `output matching ${pattern}`,
          within
        ),
      terminate,
      kill9: Effect.andThen(kill("SIGKILL"), exited)
    }
  })

/** A TCP port that was free a moment ago on 127.0.0.1. */
export const freePort: Effect.Effect<number> = Effect.callback<number>((resume) => {
  const server = createServer()
  server.listen(0, "127.0.0.1", () => {
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    server.close(() => resume(Effect.succeed(port)))
  })
})

/** A port of 127.0.0.1 that a plain TCP server holds for the scope's life (a port another program uses). */
export const takenPort: Effect.Effect<number, never, Scope.Scope> = Effect.acquireRelease(
  Effect.callback<{ readonly close: () => void; readonly port: number }>((resume) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      resume(Effect.succeed({ close: () => server.close(), port }))
    })
  }),
  (held) => Effect.sync(held.close)
).pipe(Effect.map(({ port }) => port))

export interface RestServer extends Child {
  /** `http://127.0.0.1:<port>` */
  readonly baseUrl: string
}

/** The status of GET `url`, 0 when nothing answers within a second (nothing listens yet). */
const statusOf = (url: string): Effect.Effect<number> =>
  Effect.promise(() =>
    fetch(url, { signal: AbortSignal.timeout(1000) }).then(
      (response) => response.status,
      () => 0
    )
  )

/**
 * `script`, an HTTP server, on a free port (the variable `portSetting`), ready when GET `readyPath`
 * answers 200. The rate budget is raised so that load from one token is not throttled.
 */
const startListening = (
  name: string,
  script: string,
  portSetting: "PORT" | "MCP_PORT",
  readyPath: string,
  env: Readonly<Record<string, string>>,
  within: Duration.Input,
  options: OutputOptions = {}
): Effect.Effect<RestServer, never, Scope.Scope> =>
  Effect.gen(function* () {
    const port = yield* freePort
    const baseUrl = `http://127.0.0.1:${port}`
    const child = yield* spawnNode(
      name,
      script,
      {
        HOST: "127.0.0.1",
        [portSetting]: String(port),
        RATE_LIMIT_PER_MINUTE: "1000000",
        ...env
      },
      options
    )
    yield* child.waitUntil(
      Effect.map(statusOf(`${baseUrl}${readyPath}`), (status) => status === 200),
      `GET ${readyPath} answering 200`,
      within
    )
    return { ...child, baseUrl }
  })

/** The REST server (`npm run serve`) on a free port, ready when GET /readyz answers 200. */
export const startRestServer = (
  name: string,
  env: Readonly<Record<string, string>>,
  within: Duration.Input = Duration.seconds(90),
  options: OutputOptions = {}
): Effect.Effect<RestServer, never, Scope.Scope> =>
  startListening(name, restMain, "PORT", "/readyz", env, within, options)

/** `npm start`'s process (the demo seed, then the REST server) on a free port, ready when GET /readyz answers 200. */
export const startNpmStart = (
  name: string,
  env: Readonly<Record<string, string>>,
  within: Duration.Input = Duration.seconds(90)
): Effect.Effect<RestServer, never, Scope.Scope> => startListening(name, npmStartMain, "PORT", "/readyz", env, within)

export interface McpServerProcess extends RestServer {
  /** `http://127.0.0.1:<port>/mcp` */
  readonly mcpUrl: URL
}

/** The MCP server alone (`npm run start:mcp`) on a free port, ready when GET /readyz answers 200. */
export const startMcpServer = (
  name: string,
  env: Readonly<Record<string, string>>,
  within: Duration.Input = Duration.seconds(90)
): Effect.Effect<McpServerProcess, never, Scope.Scope> =>
  Effect.map(startListening(name, mcpMain, "MCP_PORT", "/readyz", env, within), (server) => ({
    ...server,
    mcpUrl: new URL(`${server.baseUrl}/mcp`)
  }))

/** A worker process, ready once its outbox loops have started. */
export const startWorker = (
  name: string,
  env: Readonly<Record<string, string>>,
  within: Duration.Input = Duration.seconds(90)
): Effect.Effect<Child, never, Scope.Scope> =>
  Effect.tap(spawnNode(name, workerMain, env), (child) => child.waitForOutput(/outbox worker started/, within))
