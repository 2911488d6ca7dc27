/**
 * Runs @modelcontextprotocol/conformance against the margin MCP server: the server in this
 * process on 127.0.0.1 over the in-memory adapters, a Max workspace seeded with a token that has
 * every scope, and a token-adding proxy in front (the suite's client cannot authenticate). Each
 * applicable scenario runs on its own; any failure fails the run. `npm run test:mcp-conformance`.
 */
import { spawn } from "node:child_process"
import { NodeRuntime } from "@effect/platform-node"
import { aWorkspaceWithOwner } from "@margin/edge/testing/World"
import * as McpTestServer from "@margin/runtime/testing/McpTestServer"
import { Console, Effect, Layer, Runtime } from "effect"
import { applicable, notApplicable } from "./Scenarios.ts"
import { type ProxyRoute, tokenProxy } from "./TokenProxy.ts"

// Run with this process's Node (24): the suite needs Node >= 22, and its bin would pick `node` from PATH.
const conformanceCli = new URL(
  "../../../../node_modules/@modelcontextprotocol/conformance/dist/index.js",
  import.meta.url
).pathname

/** Runs the suite's CLI; answers its exit code and output. */
const conformance = (args: ReadonlyArray<string>) =>
  Effect.callback<{ readonly code: number; readonly output: string }>((resume) => {
    const child = spawn(process.execPath, [conformanceCli, ...args], { stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    child.stdout.on("data", (chunk) => {
      output += String(chunk)
    })
    child.stderr.on("data", (chunk) => {
      output += String(chunk)
    })
    child.on("close", (code) => resume(Effect.succeed({ code: code ?? 1, output })))
  })

/** Every server scenario the installed suite lists must be decided: applicable or not, with why. */
const checkInventory = Effect.gen(function* () {
  const listed = yield* conformance(["list", "--server"])
  const names = [...listed.output.matchAll(/^\s+- ([a-z0-9-]+)/gm)].map((match) => match[1] ?? "")
  const decided = new Set<string>([...applicable, ...Object.keys(notApplicable)])
  const undecided = names.filter((name) => !decided.has(name))
  const gone = [...decided].filter((name) => !names.includes(name))
  if (names.length === 0 || undecided.length > 0 || gone.length > 0) {
    return yield* Effect.fail(
      `scenario lists out of date: new ${JSON.stringify(undecided)}, gone ${JSON.stringify(gone)} (of ${names.length})`
    )
  }
  yield* Console.log(`conformance: ${names.length} server scenarios, ${applicable.length} apply`)
})

const program = Effect.gen(function* () {
  yield* checkInventory
  let route: ProxyRoute | undefined
  const proxy = yield* tokenProxy(() => route)
  // With MCP_ALLOWED_ORIGINS empty, as `npm start` runs: the suite's dns-rebinding-protection requests carry
  // Host 127.0.0.1:<proxy port> and that origin (passed through), which the default accepts as the server's own.
  const context = yield* Layer.build(McpTestServer.layer())
  const { owner } = yield* aWorkspaceWithOwner({ plan: "max" }).pipe(Effect.provide(context))
  route = { target: new URL(yield* McpTestServer.origin.pipe(Effect.provide(context))), token: owner.token }
  // Scenarios are independent (each its own client and session): run them side by side.
  const runs = yield* Effect.forEach(
    applicable,
    (scenario) =>
      Effect.map(conformance(["server", "--url", `${proxy.origin}/mcp`, "--scenario", scenario]), (run) => ({
        scenario,
        ...run
      })),
    { concurrency: "unbounded" }
  )
  for (const run of runs) {
    yield* Console.log(`${run.code === 0 ? "ok  " : "FAIL"} ${run.scenario}`)
    if (run.code !== 0) yield* Console.log(run.output)
  }
  const failures = runs.filter((run) => run.code !== 0).map((run) => run.scenario)
  yield* Console.log(`${applicable.length - failures.length} passed, ${failures.length} failed`)
  if (failures.length > 0) return yield* Effect.fail(`conformance failed: ${failures.join(", ")}`)
}).pipe(Effect.scoped)

// Exit once the suite has answered, rather than when the last idle handle of the server goes away.
NodeRuntime.runMain(program, {
  teardown: (exit) => Runtime.defaultTeardown(exit, (code) => process.exit(code))
})
