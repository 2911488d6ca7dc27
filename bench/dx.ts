// What the people who use the project wait on, in one table, each beside its target:
//   marginctl --help and --version (the bin launcher, as `npx marginctl` runs it) next to a bare
//   `node -e 0`, median wall time and peak memory of RUNS runs;
//   npm run test:core, wall time of one run;
//   npm start on a fresh data directory to a healthy server (/healthz), the server's own "ready in"
//   figure, the demo seed's peak memory, the server's and the embedded PostgreSQL's resident memory
//   once healthy; then a later start on the same data directory, and while that server runs, a
//   marginctl command that opens the database (`migrate`, nothing to migrate: what it takes is its
//   start-up), next to `node -e 0`; the same command again once the server is stopped (it then
//   starts and stops the embedded PostgreSQL itself);
//   with --suite, also `npm test` once (minutes); with --start, only the npm start rows.
// Usage: npm run bench:dx [-- --runs N] [-- --suite] [-- --start]
// The load average is printed beside the figures: on a busy machine every wall time grows, while the
// ratio to `node -e 0` moves less.
import { spawn, spawnSync } from "node:child_process"
import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { readIfThere } from "./ProcessCpu.ts"

const args = process.argv.slice(2)
const runsFlag = args.indexOf("--runs")
const runs = runsFlag === -1 ? 7 : Number(args[runsFlag + 1])
const withSuite = args.includes("--suite")
const startOnly = args.includes("--start")
if (
  !Number.isSafeInteger(runs) ||
  runs < 1 ||
  args.some((a, i) => a.startsWith("-") && !["--runs", "--suite", "--start"].includes(a) && args[i - 1] !== "--runs")
) {
  console.error("usage: npm run bench:dx [-- --runs N] [-- --suite] [-- --start]")
  process.exit(2)
}

const root = join(import.meta.dirname, "..")
const node = process.execPath
const launcher = join(root, "apps/cli/bin/marginctl.js")
// Every node process started under it reports its own peak resident set on exit, on stderr.
const peakHook = `data:text/javascript,${encodeURIComponent(
  'process.on("exit", () => process.stderr.write("\\ndx-peak-kb " + process.resourceUsage().maxRSS + "\\n"))'
)}`

const median = (values: ReadonlyArray<number>): number => {
  const sorted = values.toSorted((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
const peaksOf = (stderr: string): ReadonlyArray<number> =>
  [...stderr.matchAll(/dx-peak-kb (\d+)/g)].map((match) => Number(match[1]))

interface Timed {
  readonly wallMs: number
  readonly peakKb: number
}

/** One run of a short command: wall time and the peak of its node process. */
const timeOnce = (command: ReadonlyArray<string>, env: NodeJS.ProcessEnv = process.env): Timed => {
  const started = performance.now()
  const result = spawnSync(node, ["--import", peakHook, ...command], { cwd: root, env, encoding: "utf8" })
  const wallMs = performance.now() - started
  if (result.status !== 0) throw new Error(`${command.join(" ")} exited ${result.status}: ${result.stderr}`)
  return { wallMs, peakKb: Math.max(0, ...peaksOf(result.stderr)) }
}

/** RUNS runs after one not counted; the two commands alternate so that the machine's drift falls on both. */
const timePaired = (
  a: ReadonlyArray<string>,
  b: ReadonlyArray<string>,
  env: NodeJS.ProcessEnv = process.env
): [Timed, Timed] => {
  timeOnce(a, env)
  timeOnce(b, env)
  const as: Array<Timed> = []
  const bs: Array<Timed> = []
  for (let i = 0; i < runs; i++) {
    as.push(timeOnce(a, env))
    bs.push(timeOnce(b, env))
  }
  const summary = (timed: ReadonlyArray<Timed>): Timed => ({
    wallMs: median(timed.map((t) => t.wallMs)),
    peakKb: median(timed.map((t) => t.peakKb))
  })
  return [summary(as), summary(bs)]
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })

const healthy = async (port: number): Promise<boolean> => {
  const response = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null)
  return response?.status === 200
}

/** The processes of this machine whose parent is `pid`, recursively (Linux /proc). */
const descendants = (pid: number): ReadonlyArray<number> => {
  const parents = new Map<number, Array<number>>()
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    const stat = readIfThere(`/proc/${entry}/stat`)
    if (stat === "") continue
    const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1])
    parents.set(parent, [...(parents.get(parent) ?? []), Number(entry)])
  }
  const found: Array<number> = []
  const visit = (p: number) => {
    for (const child of parents.get(p) ?? []) {
      found.push(child)
      visit(child)
    }
  }
  visit(pid)
  return found
}

const rssKb = (pid: number): number => {
  const line = readIfThere(`/proc/${pid}/status`)
    .split("\n")
    .find((l) => l.startsWith("VmRSS:"))
  return line === undefined ? 0 : Number(line.split(/\s+/)[1])
}
const commandOf = (pid: number): string => readIfThere(`/proc/${pid}/cmdline`).split("\0").join(" ")

interface Start {
  readonly readyMs: number
  /** What the server's start-up log says: `margin-http ready in N ms` (from its process's start). */
  readonly loggedReadyMs: number
  readonly seedPeakKb: number
  readonly serverRssKb: number
  readonly postgresRssKb: number
}

/** The environment of a process on the embedded database of `dataDir`: no DATABASE_URL. */
const embeddedEnv = (dataDir: string): NodeJS.ProcessEnv => {
  const { DATABASE_URL: _server, ...inherited } = process.env
  return { ...inherited, DATA_DIR: dataDir }
}

/**
 * `npm start` on `dataDir` until /healthz answers, its memory then, `whileUp`, and a graceful stop.
 */
const npmStart = async (dataDir: string, whileUp: () => void = () => undefined): Promise<Start> => {
  const port = await freePort()
  const env = { ...embeddedEnv(dataDir), PORT: String(port), NODE_OPTIONS: `--import ${peakHook}` }
  const started = performance.now()
  const child = spawn("npm", ["start"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"], detached: true })
  let stderr = ""
  let stdout = ""
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString()
  })
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  while (!(await healthy(port))) {
    if (child.exitCode !== null) throw new Error(`npm start exited ${child.exitCode}: ${stderr}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  const readyMs = performance.now() - started
  const tree = descendants(child.pid ?? 0)
  const server = tree.find((pid) => {
    const command = commandOf(pid)
    // The node process itself, not the shell npm runs the script in.
    return /^\S*node /.test(command) && command.includes("apps/http/bin/run.js start")
  })
  const postgres = tree.filter((pid) => commandOf(pid).startsWith("postgres"))
  // The embedded server may have been started by the demo seed, outside npm's tree: find it by its data directory.
  const cluster = readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => commandOf(pid).includes(dataDir) && !tree.includes(pid))
  const clusterPids = [...new Set([...postgres, ...cluster, ...cluster.flatMap(descendants)])]
  const result: Start = {
    readyMs,
    loggedReadyMs: Number(/ready in (\d+) ms/.exec(stdout)?.[1] ?? Number.NaN),
    // The first peak line is the seed's (marginctl demo, the server's child, exits before it serves).
    seedPeakKb: peaksOf(stderr)[0] ?? 0,
    serverRssKb: server === undefined ? 0 : rssKb(server),
    postgresRssKb: clusterPids.reduce((sum, pid) => sum + rssKb(pid), 0)
  }
  whileUp()
  process.kill(-(child.pid ?? 0), "SIGTERM")
  await exited
  return result
}

const ms = (value: number) => `${Math.round(value)} ms`
const mb = (kb: number) => `${Math.round(kb / 1024)} MB`
const verdict = (met: boolean) => (met ? "met" : "not met")

const rows: Array<[string, string, string, string]> = []
const row = (what: string, figure: string, target: string, met: boolean) =>
  rows.push([what, figure, target, verdict(met)])

console.log(
  `bench:dx, ${runs} runs per command, load average before: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`
)
if (!startOnly) {
  const [help, bare] = timePaired([launcher, "--help"], ["-e", "0"])
  const [version] = timePaired([launcher, "--version"], ["-e", "0"])
  row("node -e 0 (baseline)", `${ms(bare.wallMs)}, ${mb(bare.peakKb)}`, "", true)
  row(
    "marginctl --help",
    `${ms(help.wallMs)} (${(help.wallMs / bare.wallMs).toFixed(1)}x), ${mb(help.peakKb)}`,
    "<= 300 ms, <= 80 MB",
    help.wallMs <= 300 && help.peakKb <= 80 * 1024
  )
  row("marginctl --version", `${ms(version.wallMs)}, ${mb(version.peakKb)}`, "<= 300 ms", version.wallMs <= 300)

  const coreStarted = performance.now()
  const core = spawnSync("npm", ["run", "test:core"], { cwd: root, encoding: "utf8" })
  const coreMs = performance.now() - coreStarted
  row(
    "npm run test:core",
    `${ms(coreMs)}${core.status === 0 ? "" : " (FAILED)"}`,
    "<= 10,000 ms",
    core.status === 0 && coreMs <= 10_000
  )
}

const dataDir = mkdtempSync(join(tmpdir(), "margin-dx-"))
try {
  const first = await npmStart(dataDir)
  // marginctl while the service runs joins its database; alone, it starts and stops it.
  const migrate = [launcher, "migrate"]
  let joined: [Timed, Timed] | undefined
  const later = await npmStart(dataDir, () => {
    joined = timePaired(migrate, ["-e", "0"], embeddedEnv(dataDir))
  })
  const [alone] = timePaired(migrate, ["-e", "0"], embeddedEnv(dataDir))
  const together = first.serverRssKb + first.postgresRssKb
  row(
    "npm start, fresh data dir, to healthy",
    `${ms(first.readyMs)} (its log: ready in ${ms(first.loggedReadyMs)})`,
    "<= 5,000 ms",
    first.readyMs <= 5_000
  )
  row(
    "npm start, later start, to healthy",
    `${ms(later.readyMs)} (its log: ready in ${ms(later.loggedReadyMs)})`,
    "<= 2,000 ms",
    later.readyMs <= 2_000
  )
  row("demo seed peak (fresh)", mb(first.seedPeakKb), "<= 400 MB", first.seedPeakKb <= 400 * 1024)
  row("server RSS once healthy", mb(first.serverRssKb), "", true)
  row("embedded PostgreSQL RSS once healthy (all its processes)", mb(first.postgresRssKb), "", true)
  row("server + embedded PostgreSQL RSS", mb(together), "<= 250 MB", together <= 250 * 1024)
  if (joined !== undefined) {
    const [command, baseline] = joined
    row(
      "marginctl migrate, service running (joins its database)",
      `${ms(command.wallMs)} (node -e 0: ${ms(baseline.wallMs)}), ${mb(command.peakKb)}`,
      "<= 500 ms",
      command.wallMs <= 500
    )
  }
  row("marginctl migrate, alone (starts and stops the database)", `${ms(alone.wallMs)}, ${mb(alone.peakKb)}`, "", true)
} finally {
  rmSync(dataDir, { recursive: true, force: true })
}

if (withSuite) {
  const suiteStarted = performance.now()
  const suite = spawnSync("npm", ["test"], { cwd: root, stdio: "ignore" })
  const suiteMs = performance.now() - suiteStarted
  row(
    "npm test (embedded database)",
    `${(suiteMs / 60_000).toFixed(1)} min${suite.status === 0 ? "" : " (FAILED)"}`,
    "<= 8 min",
    suite.status === 0 && suiteMs <= 8 * 60_000
  )
}

const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i].length)))
for (const r of rows) console.log(r.map((cell, i) => cell.padEnd(widths[i])).join("  "))
console.log(
  `load average after: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`
)
