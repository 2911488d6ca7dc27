// The REST server next to a bare node:http server (bench/http-bare.ts: same client, same SQL, no
// framework) on one scratch PostgreSQL database, measured side by side in the same run:
//   list    GET /api/v1/recommendations?limit=50, authenticated by an API token;
//   accept  POST /api/v1/recommendations/:id/accept, each request on a distinct `new` recommendation
//           (the transition path, never the idempotent repeat).
// Each round starts new server processes (a process is fast or slow for its whole life, so the rounds
// average several draws) and alternates the order of the servers. Per scenario each server is warmed
// up, then its `seconds` are measured in BENCH_SLICES slices (default 5: 2 s each), the servers taking
// turns a slice at a time, the order reversed every slice, so that the machine's drift in speed falls
// on all of them alike; each slice is PostgreSQL's upkeep (VACUUM of the tables the requests write,
// CHECKPOINT), then `concurrency` keep-alive clients. The figures are the sum over the slices and
// rounds; the CPU per request of the server process (from /proc) says more than the rate on a shared
// machine. BENCH_SLICES=1 measures each server's seconds in one piece, as before session 15.
// Each server's stdout and stderr go to a file of its own (a temporary directory, removed at the end),
// not through a pipe into this process, which is also the load's client (before session 17 it read
// every log line of the REST server, one a request, while measuring it).
// Usage: npm run bench:http [-- <seconds> <concurrency> <rounds>]   (default 10 s, 32, 3 rounds)
// BENCH_LOG_LEVEL (default Info, as in production: one log line per request) for both servers.
// BENCH_PROFILE_DIR=<dir>: every server process writes a CPU profile (node --cpu-prof) under
// <dir>/<server name> (one file per round), sampled every BENCH_PROFILE_INTERVAL microseconds
// (default 1000).
// BENCH_SCENARIOS=list or accept: only that scenario (e.g. for a profile of one path).
// BENCH_WARMUP=<seconds> (default 2): the warm-up before each measurement.
// BENCH_EFFECT_FLOOR=1: also bench/http-effect.ts, the bare server's SQL in an Effect HttpApi handler;
// with BENCH_FLOOR_GUARD=1 that floor also runs the REST server's response guard and JSON log line.
// BENCH_REST_B=<another checkout>/apps/http/src/main.ts: also that checkout's REST server, in the same rounds.
// BENCH_REST_VARIANTS='{"name":"<checkout>/apps/http/src/main.ts",...}': more REST servers of other
// checkouts (an A/B of a change each: bench/ab-checkouts.sh makes them), in the same rounds and slices;
// the run ends with each one's A/B against this checkout's REST server, or against the variant
// BENCH_AB_REFERENCE names (docs/performance.md).
// BENCH_REST_ENV='{"NAME":"value"}': more environment for this checkout's REST server only (an A/B of a
// setting against restB, e.g. {"LOG_LEVEL":"Warn"}).
// BENCH_CPU_PART=user or system: the CPU columns count only that part of the processes' CPU time.
// BENCH_ALLOCATION=1: also what each server allocated on its JS heap per request, the time its GC
// took (main thread) and what its scavenges promoted to the old generation per request
// (bench/AllocationProbe.ts, loaded with --import): allocation is steady between runs where CPU
// time on a busy machine is not, so it tells two versions apart in one run.
// BENCH_SYSCALLS=1: also the read and write system calls each server made per request (/proc/<pid>/io).
// Columns: the server's CPU per request, the database's (every postgres process of the machine) and
// the share of the machine's CPU left idle while measuring (near 0: the machine is the limit).
// PostgreSQL: DATABASE_URL, else PG_TEST_URL, else postgres://postgres@127.0.0.1:5432 (a fresh
// database is created there and dropped at the end).
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { Agent, request } from "node:http"
import { availableParallelism, loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { isDeepStrictEqual } from "node:util"
import { NodeRuntime } from "@effect/platform-node"
import { CatalogRepository } from "@margin/core/catalog/CatalogRepository"
import { CatalogItemId, RecommendationId, type WorkspaceId } from "@margin/core/kernel/Ids"
import type { Recommendation } from "@margin/core/recommendations/Recommendation"
import { RecommendationRepository } from "@margin/core/recommendations/RecommendationRepository"
import { aCatalogItemInput, aRecommendation } from "@margin/core/testing/Fixtures"
import { freshId, seedRun } from "@margin/core/testing/Seed"
import { seedApprovalWorkspace } from "@margin/runtime/testing/ApprovalWorld"
import { type Child, freePort, spawnNode, startRestServer } from "@margin/runtime/testing/ChildProcesses"
import * as ScratchDatabase from "@margin/runtime/testing/ScratchDatabase"
import { Array as Arr, Clock, Console, Effect } from "effect"
import { SqlClient } from "effect/sql"
import { abLines } from "./AbVerdict.ts"
import { cpuOf, databaseCpuMs, idleMs } from "./ProcessCpu.ts"
import { type Syscalls, syscallsBetween, syscallsOf } from "./ProcessIo.ts"

const seconds = Number(process.argv[2] ?? 10)
const concurrency = Number(process.argv[3] ?? 32)
const rounds = Number(process.argv[4] ?? 3)
const warmupSeconds = Number(process.env.BENCH_WARMUP ?? 2)
/** BENCH_SLICES: each server's `seconds` of a round are measured in this many slices, taken in turn. */
const slices = Number(process.env.BENCH_SLICES ?? 5)
if (![seconds, concurrency, rounds].every((value) => Number.isSafeInteger(value) && value > 0)) {
  console.error(`usage: node bench/http.ts [seconds] [concurrency] [rounds], got "${process.argv.slice(2).join(" ")}"`)
  process.exit(2)
}
if (!Number.isSafeInteger(slices) || slices < 1) {
  console.error(`BENCH_SLICES must be a whole number above 0, got "${process.env.BENCH_SLICES}"`)
  process.exit(2)
}
if (!Number.isSafeInteger(warmupSeconds) || warmupSeconds < 0) {
  console.error(`BENCH_WARMUP must be a whole number of seconds, got "${process.env.BENCH_WARMUP}"`)
  process.exit(2)
}
/**
 * Distinct `new` recommendations per server: every accept of every round and warm-up at up to
 * 2,500/s (above the fastest rate seen here: 1,900/s), so that no round runs out of them.
 */
const acceptPool = Number(process.env.BENCH_ACCEPT_POOL ?? rounds * (seconds + warmupSeconds) * 2_500)
const rateLimit = "100000000"
/**
 * BENCH_EFFECT_FLOOR=1: a third server, bench/http-effect.ts (the bare server's SQL in an Effect
 * HttpApi handler, nothing of ours in between), splitting the distance into Effect's and ours.
 */
const withFloor = process.env.BENCH_EFFECT_FLOOR === "1"
/**
 * BENCH_REST_B=<another checkout>/apps/http/src/main.ts: that checkout's REST server too ("restB"),
 * measured in the same rounds, for a before/after that the machine's drift between runs cannot blur.
 */
const otherRest = process.env.BENCH_REST_B
/** BENCH_REST_VARIANTS: other checkouts' REST servers by name, each measured as restB is. */
const variants = ((): ReadonlyArray<readonly [string, string]> => {
  const parsed: unknown = JSON.parse(process.env.BENCH_REST_VARIANTS ?? "{}")
  if (
    typeof parsed !== "object" ||
    parsed === null ||
    Array.isArray(parsed) ||
    !Object.values(parsed).every((value) => typeof value === "string" && existsSync(value))
  ) {
    console.error(
      `BENCH_REST_VARIANTS must be a JSON object of names to existing main.ts paths, got ${process.env.BENCH_REST_VARIANTS}`
    )
    process.exit(2)
  }
  const named: Array<readonly [string, string]> = Object.entries(parsed)
  if (otherRest !== undefined) named.unshift(["restB", otherRest])
  const taken = named.find(([name]) => ["rest", "bare", "effect"].includes(name))
  if (taken !== undefined) {
    console.error(`BENCH_REST_VARIANTS: "${taken[0]}" is the name of a server of the bench`)
    process.exit(2)
  }
  return named
})()
/** BENCH_AB_REFERENCE: the server the A/B compares every other REST server with (default rest, this checkout's). */
const abReference = process.env.BENCH_AB_REFERENCE ?? "rest"
if (abReference !== "rest" && !variants.some(([name]) => name === abReference)) {
  console.error(`BENCH_AB_REFERENCE must be rest or a name of BENCH_REST_VARIANTS, got "${abReference}"`)
  process.exit(2)
}
/** BENCH_REST_ENV: extra environment of this checkout's REST server, a JSON object of strings. */
const restEnv = ((): Readonly<Record<string, string>> => {
  const parsed: unknown = JSON.parse(process.env.BENCH_REST_ENV ?? "{}")
  if (
    typeof parsed !== "object" ||
    parsed === null ||
    Array.isArray(parsed) ||
    !Object.values(parsed).every((value) => typeof value === "string")
  ) {
    console.error(`BENCH_REST_ENV must be a JSON object of strings, got ${process.env.BENCH_REST_ENV}`)
    process.exit(2)
  }
  return Object.fromEntries(Object.entries(parsed))
})()
/** BENCH_ALLOCATION=1: where the servers' allocation probes write (bench/AllocationProbe.ts). */
const probeDir = process.env.BENCH_ALLOCATION === "1" ? mkdtempSync(join(tmpdir(), "bench-allocation-")) : undefined

interface HeapUse {
  readonly allocatedBytes: number
  readonly gcMs: number
  readonly promotedBytes: number
}

/** A server's allocation and GC time so far: its probe answers SIGUSR2 with a line; null without probes. */
const heapUseOf = async (pid: number): Promise<HeapUse | null> => {
  if (probeDir === undefined) return null
  const file = join(probeDir, `${pid}.jsonl`)
  const lines = () =>
    existsSync(file)
      ? readFileSync(file, "utf8")
          .trim()
          .split("\n")
          .filter((line) => line !== "")
      : []
  const before = lines().length
  process.kill(pid, "SIGUSR2")
  for (let waited = 0; waited < 2_000; waited += 10) {
    const now = lines()
    if (now.length > before) {
      const last: unknown = JSON.parse(now[now.length - 1] ?? "null")
      if (
        typeof last === "object" &&
        last !== null &&
        "allocatedBytes" in last &&
        "gcMs" in last &&
        "promotedBytes" in last
      ) {
        return {
          allocatedBytes: Number(last.allocatedBytes),
          gcMs: Number(last.gcMs),
          promotedBytes: Number(last.promotedBytes)
        }
      }
      return null
    }
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return null
}

/** Where two JSON values first differ, as a path with both values; "" when they do not. */
const firstDifference = (a: unknown, b: unknown, path: string): string => {
  if (isDeepStrictEqual(a, b)) return ""
  if (typeof a === "object" && a !== null && typeof b === "object" && b !== null) {
    const [left, right] = [new Map(Object.entries(a)), new Map(Object.entries(b))]
    for (const key of new Set([...left.keys(), ...right.keys()])) {
      const found = firstDifference(left.get(key), right.get(key), `${path}/${key}`)
      if (found !== "") return found
    }
  }
  return `${path}: ${JSON.stringify(a)} against ${JSON.stringify(b)}`
}

/** The servers of every round, in the order `startServers` starts them; each has its own accept pool. */
const serverNames = ["rest", "bare", ...(withFloor ? ["effect"] : []), ...variants.map(([name]) => name)]

/** `new` recommendations of one run, one per catalog item, inserted through the PostgreSQL adapters. */
const seedNewRecommendations = Effect.fnUntraced(function* (workspaceId: WorkspaceId, count: number) {
  const now = yield* Clock.currentTimeMillis
  const run = yield* seedRun(workspaceId, { status: "succeeded", createdAt: now, finishedAt: now })
  const skus = Arr.makeBy(count, (index) => `BENCH-${index}`)
  yield* CatalogRepository.use((catalog) =>
    catalog.upsertMany(
      workspaceId,
      skus.map((sku) => aCatalogItemInput({ sku, title: `Item ${sku}`, price: 1000 })),
      now
    )
  )
  const sql = yield* SqlClient.SqlClient
  const items = yield* sql<{ readonly id: string; readonly sku: string }>`
    SELECT id, sku FROM catalog_items WHERE workspace_id = ${workspaceId}`
  const recommendations: Array<Recommendation> = []
  for (const [index, item] of items.entries()) {
    recommendations.push(
      aRecommendation({
        id: yield* freshId("recommendation", RecommendationId.make),
        workspaceId,
        runId: run.id,
        itemId: CatalogItemId.make(item.id),
        sku: item.sku,
        currentPrice: 1000,
        recommendedPrice: 1099,
        status: "new",
        // Distinct creation instants, so that the list's order is the one of a real history.
        createdAt: now - index,
        updatedAt: now - index
      })
    )
  }
  for (const chunk of Arr.chunksOf(recommendations, 5_000)) {
    yield* RecommendationRepository.use((repository) => repository.insertMany(chunk))
  }
  return recommendations.map((recommendation) => recommendation.id)
})

interface Target {
  readonly method: "GET" | "POST"
  readonly path: () => string | null
}

interface Measured {
  readonly latencies: Array<number>
  readonly statuses: Map<number, number>
  readonly elapsedMs: number
  readonly cpuMs: number | null
  /** CPU of the database's processes over the measurement. */
  readonly databaseCpuMs: number | null
  /** Idle CPU of the machine (all cores) over the measurement. */
  readonly idleMs: number | null
  /** JS heap bytes the server allocated and promoted, and its GC time, over the measurement (BENCH_ALLOCATION=1). */
  readonly heap: HeapUse | null
  /** The server's read and write system calls over the measurement (BENCH_SYSCALLS=1). */
  readonly syscalls: Syscalls | null
}

/** `concurrency` keep-alive clients sending `target` until `durationMs` passed or its paths ran out. */
const load = (
  port: number,
  token: string,
  target: Target,
  durationMs: number
): Promise<Omit<Measured, "cpuMs" | "databaseCpuMs" | "idleMs" | "heap" | "syscalls">> => {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency })
  const latencies: Array<number> = []
  const statuses = new Map<number, number>()
  const started = performance.now()
  const deadline = started + durationMs
  const once = (path: string) =>
    new Promise<number>((resolve, reject) => {
      const sent = request(
        {
          agent,
          host: "127.0.0.1",
          port,
          method: target.method,
          path,
          headers: { authorization: `Bearer ${token}`, "content-length": 0 }
        },
        (response) => {
          response.resume()
          response.on("end", () => resolve(response.statusCode ?? 0))
          response.on("error", reject)
        }
      )
      sent.on("error", reject)
      sent.end()
    })
  const client = async () => {
    while (performance.now() < deadline) {
      const path = target.path()
      if (path === null) return
      const sentAt = performance.now()
      const status = await once(path)
      latencies.push(performance.now() - sentAt)
      statuses.set(status, (statuses.get(status) ?? 0) + 1)
    }
  }
  return Promise.all(Arr.makeBy(concurrency, client)).then(() => {
    agent.destroy()
    return { latencies, statuses, elapsedMs: performance.now() - started }
  })
}

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN

interface Summary {
  readonly rate: number
  readonly p50: number
  readonly p99: number
  readonly cpuPerRequest: number | null
  readonly databaseCpuPerRequest: number | null
  /** Share of the machine's CPU left idle while measuring: near 0 when the machine is the limit. */
  readonly idleShare: number | null
  readonly allocatedKbPerRequest: number | null
  readonly gcMsPerRequest: number | null
  readonly promotedKbPerRequest: number | null
  readonly readsPerRequest: number | null
  readonly writesPerRequest: number | null
  readonly failures: number
  /** How many answers of each status, all of the runs together. */
  readonly statuses: ReadonlyMap<number, number>
}

/** How many answers of each status the runs had, together. */
const statusesOf = (runs: ReadonlyArray<Measured>): Map<number, number> => {
  const statuses = new Map<number, number>()
  for (const run of runs)
    for (const [status, count] of run.statuses) statuses.set(status, (statuses.get(status) ?? 0) + count)
  return statuses
}

const summarize = (runs: ReadonlyArray<Measured>): Summary => {
  const latencies = runs.flatMap((run) => run.latencies).sort((a, b) => a - b)
  const elapsed = runs.reduce((sum, run) => sum + run.elapsedMs, 0)
  const total = (of: (run: Measured) => number | null) =>
    runs.every((run) => of(run) !== null) ? runs.reduce((sum, run) => sum + (of(run) ?? 0), 0) : null
  const cpu = total((run) => run.cpuMs)
  const databaseCpu = total((run) => run.databaseCpuMs)
  const idle = total((run) => run.idleMs)
  const allocated = total((run) => run.heap?.allocatedBytes ?? null)
  const gc = total((run) => run.heap?.gcMs ?? null)
  const promoted = total((run) => run.heap?.promotedBytes ?? null)
  const reads = total((run) => run.syscalls?.reads ?? null)
  const writes = total((run) => run.syscalls?.writes ?? null)
  const statuses = statusesOf(runs)
  const failures = [...statuses].reduce((sum, [status, count]) => (status === 200 ? sum : sum + count), 0)
  return {
    rate: (latencies.length * 1000) / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    cpuPerRequest: cpu === null ? null : cpu / latencies.length,
    databaseCpuPerRequest: databaseCpu === null ? null : databaseCpu / latencies.length,
    idleShare: idle === null ? null : idle / (elapsed * availableParallelism()),
    allocatedKbPerRequest: allocated === null ? null : allocated / 1024 / latencies.length,
    gcMsPerRequest: gc === null ? null : gc / latencies.length,
    promotedKbPerRequest: promoted === null ? null : promoted / 1024 / latencies.length,
    readsPerRequest: reads === null ? null : reads / latencies.length,
    writesPerRequest: writes === null ? null : writes / latencies.length,
    failures,
    statuses
  }
}

const cell = (text: string, width: number) => text.padEnd(width)
const row = (cells: ReadonlyArray<string>) =>
  cells.map((text, index) => cell(text, [10, 8, 10, 10, 10, 12, 12, 8, 10, 22, 13, 10][index] ?? 10)).join(" ")

/** BENCH_SYSCALLS=1: the servers' system calls per request (bench/ProcessIo.ts). */
const withSyscalls = process.env.BENCH_SYSCALLS === "1"

/** What is read from /proc just before and just after a measurement of the server `pid`. */
const readingOf = (pid: number) => ({
  cpu: cpuOf([pid]),
  database: databaseCpuMs(),
  idle: idleMs(),
  syscalls: withSyscalls ? syscallsOf(pid) : null
})

const spent = (from: number | null, to: number | null) => (from === null || to === null ? null : to - from)

const program = Effect.gen(function* () {
  const database = yield* ScratchDatabase.ScratchDatabase
  // The servers' stdout and stderr, a file each: through pipes this process (the load's client) read
  // every log line of the REST server while measuring it, CPU the bare server never cost it. A new
  // file for each process: a server's start is recognized in its own output.
  const outputDir = mkdtempSync(join(tmpdir(), "bench-http-output-"))
  let started = 0
  const outputOf = (name: string) => ({ outputFile: join(outputDir, `${name}-${++started}.log`) })
  // The servers' output and the probes' files go with the run, as the scratch database does.
  yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(outputDir, { recursive: true })))
  if (probeDir !== undefined) yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(probeDir, { recursive: true })))
  yield* Console.log(
    `bench:http: ${rounds} rounds x (list, accept) x (rest, bare), ${warmupSeconds} s warm-up + ${seconds} s each in ${slices} slices taken in turn, ${concurrency} concurrent keep-alive clients, LOG_LEVEL ${process.env.BENCH_LOG_LEVEL ?? "Info"}, node ${process.version}`
  )
  const { workspaceId, token } = yield* seedApprovalWorkspace()
  const seedStarted = Date.now()
  const ids = yield* seedNewRecommendations(workspaceId, serverNames.length * acceptPool)
  yield* Console.log(`seeded ${ids.length} new recommendations in ${Date.now() - seedStarted} ms`)
  // PostgreSQL's upkeep comes between the measurements, not inside one of them, and every server
  // starts on tables in the same state:
  // - autovacuum, which the seed and the accept windows' updates and audit inserts set off, is off
  //   for those two big tables, which are vacuumed and analysed before each measurement instead;
  // - the rate budget's row, which every request of every server updates (one token), is vacuumed
  //   then too: otherwise a server measured after another within the same minute finds thousands of
  //   that row's dead versions left behind by it (measured: 30 % more CPU in the database per request
  //   for the same code);
  // - the previous window's writes are checkpointed then (a superuser's privilege; without it the
  //   checkpoints fall where they fall).
  const sql = yield* SqlClient.SqlClient
  const bigTables = ["recommendations", "audit_events"]
  for (const table of bigTables) yield* sql`ALTER TABLE ${sql(table)} SET (autovacuum_enabled = false)`
  yield* sql`VACUUM (ANALYZE)`
  const upkeep = Effect.gen(function* () {
    yield* sql`VACUUM (ANALYZE) ${sql.literal([...bigTables, "rate_budget_windows", "api_tokens"].join(", "))}`
    yield* sql`CHECKPOINT`.pipe(Effect.ignore)
  })

  const env = {
    DATABASE_URL: database.url,
    RATE_LIMIT_PER_MINUTE: rateLimit,
    OUTBOX_CONCURRENCY: "0",
    RUN_WORKER_CONCURRENCY: "0",
    // The production default (Info) writes one JSON line per request; BENCH_LOG_LEVEL=Warn leaves it out.
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "Info"
  }
  // BENCH_PROFILE_DIR: each server writes a V8 CPU profile under it when it stops.
  const profileDir = process.env.BENCH_PROFILE_DIR
  // BENCH_PROFILE_INTERVAL: the profiles' sampling interval in microseconds (node's default: 1000).
  const profileInterval = process.env.BENCH_PROFILE_INTERVAL
  // BENCH_ALLOCATION: each server loads the allocation probe.
  const probe = pathToFileURL(join(import.meta.dirname, "AllocationProbe.ts")).href
  const profiled = (name: string) => {
    const options = [
      ...(profileDir === undefined
        ? []
        : [
            "--cpu-prof",
            `--cpu-prof-dir=${join(profileDir, name)}`,
            ...(profileInterval === undefined ? [] : [`--cpu-prof-interval=${profileInterval}`])
          ]),
      ...(probeDir === undefined ? [] : [`--import=${probe}`])
    ]
    return options.length === 0
      ? env
      : { ...env, NODE_OPTIONS: options.join(" "), ...(probeDir === undefined ? {} : { BENCH_PROBE_DIR: probeDir }) }
  }
  /** A server on its own port, ready once `ready` holds. */
  const startNode = (name: string, path: string, ready: (child: Child, port: number) => Effect.Effect<void>) =>
    Effect.gen(function* () {
      const port = yield* freePort
      const child = yield* spawnNode(
        name,
        path,
        { ...profiled(name), PORT: String(port), HOST: "127.0.0.1" },
        outputOf(name)
      )
      yield* ready(child, port)
      return { name, port, child }
    })
  /**
   * The servers of one round, each a new process: a process is fast or slow for its whole life
   * (docs/history/performance-log.md, session 12), so each round draws again and the sums over the rounds
   * average the draws rather than repeat one.
   */
  const startServers = Effect.gen(function* () {
    const rest = yield* startRestServer("rest", { ...profiled("rest"), ...restEnv }, "90 seconds", outputOf("rest"))
    const bare = yield* startNode("bare", join(import.meta.dirname, "http-bare.ts"), (child) =>
      child.waitForOutput(/listening/)
    )
    const extras = [
      ...(withFloor
        ? [
            yield* startNode("effect", join(import.meta.dirname, "http-effect.ts"), (child) =>
              child.waitForOutput(/listening/)
            )
          ]
        : []),
      ...(yield* Effect.forEach(variants, ([name, path]) =>
        startNode(name, path, (child, port) =>
          child.waitUntil(
            Effect.promise(() =>
              fetch(`http://127.0.0.1:${port}/readyz`).then(
                (response) => response.status === 200,
                () => false
              )
            ),
            `${name} ready`,
            "90 seconds"
          )
        )
      ))
    ]
    const servers = [{ name: "rest", port: Number(new URL(rest.baseUrl).port), child: rest }, bare, ...extras]
    // Same work, same answer: the first list page of every server must be the REST server's JSON.
    const pages = yield* Effect.forEach(servers, (server) =>
      Effect.promise(() =>
        fetch(`http://127.0.0.1:${server.port}/api/v1/recommendations?limit=50`, {
          headers: { authorization: `Bearer ${token}` }
        }).then((response) => response.json())
      )
    )
    const differing = servers.filter((_, index) => !isDeepStrictEqual(pages[index], pages[0]))
    if (differing.length > 0) {
      return yield* Effect.die(
        `${differing.map((server) => `${server.name} (${firstDifference(pages[0], pages[servers.indexOf(server)], "")})`).join(", ")} answer another list than rest`
      )
    }
    return servers
  })
  const pools = new Map<string, Array<string>>(
    serverNames.map((name, index) => [name, ids.slice(index * acceptPool, (index + 1) * acceptPool)])
  )
  const allScenarios = [
    {
      name: "list",
      target: (_server: string): Target => ({ method: "GET", path: () => "/api/v1/recommendations?limit=50" })
    },
    {
      name: "accept",
      target: (server: string): Target => ({
        method: "POST",
        path: () => {
          const id = pools.get(server)?.pop()
          return id === undefined ? null : `/api/v1/recommendations/${id}/accept`
        }
      })
    }
  ] as const
  const only = process.env.BENCH_SCENARIOS?.split(",")
  const scenarios = allScenarios.filter((scenario) => only === undefined || only.includes(scenario.name))

  /** The warm-up of `server` before its first slice of a scenario: the requests it answered. */
  const warm = (server: { readonly port: number }, target: Target) =>
    Effect.map(
      Effect.promise(() => load(server.port, token, target, warmupSeconds * 1000)),
      (warmup) => warmup.latencies.length
    )

  /** One slice of the measurement of `server`: PostgreSQL's upkeep, then `durationMs` of measured load. */
  const measure = (server: { readonly port: number; readonly child: Child }, target: Target, durationMs: number) =>
    Effect.gen(function* () {
      const pid = server.child.pid
      yield* upkeep
      const heapBefore = yield* Effect.promise(() => heapUseOf(pid))
      const before = readingOf(pid)
      const measured = yield* Effect.promise(() => load(server.port, token, target, durationMs))
      const after = readingOf(pid)
      const heapAfter = yield* Effect.promise(() => heapUseOf(pid))
      const run: Measured = {
        ...measured,
        cpuMs: spent(before.cpu, after.cpu),
        databaseCpuMs: spent(before.database, after.database),
        idleMs: spent(before.idle, after.idle),
        heap:
          heapBefore === null || heapAfter === null
            ? null
            : {
                allocatedBytes: heapAfter.allocatedBytes - heapBefore.allocatedBytes,
                gcMs: heapAfter.gcMs - heapBefore.gcMs,
                promotedBytes: heapAfter.promotedBytes - heapBefore.promotedBytes
              },
        syscalls: syscallsBetween(before.syscalls, after.syscalls)
      }
      return run
    })

  const results = new Map<string, Array<Measured>>()
  /** Per scenario and server, its slices in the order taken (round by round): the A/B pairs them by index. */
  const slicesByKey = new Map<string, Array<Measured>>()
  const loads: Array<number> = [loadavg()[0] ?? Number.NaN]
  /** Requests each server answered, warm-ups included: what a CPU profile's totals divide by. */
  const served = new Map<string, number>()
  for (let round = 0; round < rounds; round++) {
    yield* Effect.scoped(
      Effect.gen(function* () {
        const servers = yield* startServers
        for (const scenario of scenarios) {
          const order = round % 2 === 0 ? servers : [...servers].reverse()
          for (const server of order) {
            const warmupRequests = yield* warm(server, scenario.target(server.name))
            served.set(server.name, (served.get(server.name) ?? 0) + warmupRequests)
          }
          // The servers take turns, a slice each, the order reversed every slice: whatever the
          // machine does meanwhile (its speed drifts by tens of percent within a minute) falls on
          // all of them alike rather than on whichever was measured then.
          const slicesOf = new Map<string, Array<Measured>>()
          for (let slice = 0; slice < slices; slice++) {
            for (const server of slice % 2 === 0 ? order : [...order].reverse()) {
              const run = yield* measure(server, scenario.target(server.name), (seconds * 1000) / slices)
              served.set(server.name, (served.get(server.name) ?? 0) + run.latencies.length)
              slicesOf.set(server.name, [...(slicesOf.get(server.name) ?? []), run])
            }
          }
          for (const server of order) {
            const runs = slicesOf.get(server.name) ?? []
            const key = `${scenario.name}/${server.name}`
            results.set(key, [...(results.get(key) ?? []), ...runs])
            slicesByKey.set(key, [...(slicesByKey.get(key) ?? []), ...runs])
            const summary = summarize(runs)
            yield* Console.log(
              `  round ${round + 1} ${key}: ${summary.rate.toFixed(0)} req/s, p50 ${summary.p50.toFixed(1)} ms, p99 ${summary.p99.toFixed(1)} ms${summary.failures > 0 ? `, ${summary.failures} not 200: ${JSON.stringify([...summary.statuses])}` : ""}`
            )
          }
        }
        loads.push(loadavg()[0] ?? Number.NaN)
        yield* Console.log(`  round ${round + 1} done, load average (1 min) ${loads[loads.length - 1]?.toFixed(1)}`)
        // SIGTERM, so that each process writes its CPU profile (BENCH_PROFILE_DIR) before the next round.
        yield* Effect.forEach(servers, (server) => server.child.terminate(), {
          concurrency: "unbounded",
          discard: true
        })
      })
    )
  }

  yield* Console.log("")
  yield* Console.log(
    row([
      "scenario",
      "server",
      "req/s",
      "p50 ms",
      "p99 ms",
      "CPU ms/req",
      "DB CPU ms/req",
      "idle",
      "non-200",
      "ratio to bare",
      ...(probeDir === undefined ? [] : ["alloc KB/req", "GC ms/req", "promoted KB/req"]),
      ...(withSyscalls ? ["reads/req", "writes/req"] : [])
    ])
  )
  // The verdict on the unrounded ratios: a 0.897x would read 0.90x at two decimals.
  const verdicts: Array<string> = []
  for (const scenario of scenarios) {
    const summaries = new Map<string, Summary>(
      serverNames.map((name) => [name, summarize(results.get(`${scenario.name}/${name}`) ?? [])])
    )
    const bareSummary = summaries.get("bare")
    for (const [name, summary] of summaries) {
      const toBare =
        name !== "bare" && bareSummary !== undefined
          ? { rate: summary.rate / bareSummary.rate, p99: summary.p99 / bareSummary.p99 }
          : undefined
      if (name === "rest" && toBare !== undefined) {
        verdicts.push(
          `${scenario.name}: rate ${toBare.rate.toFixed(3)}x (${toBare.rate >= 0.9 ? "met" : "not met"}), p99 ${toBare.p99.toFixed(3)}x (${toBare.p99 <= 1.5 ? "met" : "not met"})`
        )
      }
      const ratio = toBare === undefined ? "" : `${toBare.rate.toFixed(3)}x req/s, ${toBare.p99.toFixed(2)}x p99`
      yield* Console.log(
        row([
          scenario.name,
          name,
          summary.rate.toFixed(0),
          summary.p50.toFixed(1),
          summary.p99.toFixed(1),
          summary.cpuPerRequest === null ? "n/a" : summary.cpuPerRequest.toFixed(2),
          summary.databaseCpuPerRequest === null ? "n/a" : summary.databaseCpuPerRequest.toFixed(2),
          summary.idleShare === null ? "n/a" : `${(summary.idleShare * 100).toFixed(0)}%`,
          String(summary.failures),
          ratio,
          ...(probeDir === undefined
            ? []
            : [
                summary.allocatedKbPerRequest === null ? "n/a" : summary.allocatedKbPerRequest.toFixed(0),
                summary.gcMsPerRequest === null ? "n/a" : summary.gcMsPerRequest.toFixed(3),
                summary.promotedKbPerRequest === null ? "n/a" : summary.promotedKbPerRequest.toFixed(1)
              ]),
          ...(withSyscalls
            ? [
                summary.readsPerRequest === null ? "n/a" : summary.readsPerRequest.toFixed(2),
                summary.writesPerRequest === null ? "n/a" : summary.writesPerRequest.toFixed(2)
              ]
            : [])
        ])
      )
    }
  }
  yield* Console.log("target: rest >= 0.9x the bare req/s, p99 <= 1.5x the bare p99")
  for (const verdict of verdicts) yield* Console.log(verdict)
  if (variants.length > 0) {
    yield* Console.log("")
    yield* Console.log(
      `A/B against ${abReference}, slice by slice (each pair taken back to back), load average ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}:`
    )
    for (const line of abLines(
      scenarios.map((scenario) => scenario.name),
      slicesByKey,
      abReference,
      ["rest", ...variants.map(([name]) => name)].filter((name) => name !== abReference)
    ))
      yield* Console.log(line)
  }
  if (profileDir !== undefined) {
    yield* Console.log(`requests answered, warm-ups included (profiles): ${JSON.stringify(Object.fromEntries(served))}`)
  }
}).pipe(Effect.scoped, Effect.provide(ScratchDatabase.layer))

NodeRuntime.runMain(program)
