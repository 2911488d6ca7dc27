import { readdirSync, readFileSync } from "node:fs"
import { assert, describe, it } from "@effect/vitest"
import { Recommendations } from "@margin/core/recommendations/Recommendations"
import {
  connectStore,
  seedItem,
  seedRecommendation,
  seedWorkspace,
  sessionActor,
  useCases,
  wsA
} from "@margin/core/testing/UseCases"
import { WriteBackOutbox } from "@margin/core/writeback/WriteBackOutbox"
import { csvColumns, ReportRowJson } from "@margin/edge/wire"
import { Effect, Option } from "effect"

/** What the README and the guides say about the repository, held against what it really does. */

const root = new URL("../", import.meta.url)
const read = (path: string) => readFileSync(new URL(path, root), "utf8")

const Manifest = (text: string) => {
  const manifest: {
    readonly engines?: { readonly node?: string }
    readonly devEngines?: { readonly runtime?: { readonly name?: string; readonly version?: string } }
    readonly devDependencies?: Readonly<Record<string, string>>
  } = JSON.parse(text)
  return manifest
}

/** `>=22.19` -> [22, 19, 0]; the only range form the manifest uses. */
const lowerBound = (range: string): ReadonlyArray<number> => {
  const match = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim())
  assert.isNotNull(match, `a ">=x.y" range, got ${range}`)
  return [Number(match?.[1] ?? 0), Number(match?.[2] ?? 0), Number(match?.[3] ?? 0)]
}

const atLeast = (version: ReadonlyArray<number>, bound: ReadonlyArray<number>): boolean => {
  for (let index = 0; index < 3; index++) {
    const difference = (version[index] ?? 0) - (bound[index] ?? 0)
    if (difference !== 0) return difference > 0
  }
  return true
}

/** Every guide, and the README. */
const guides = (): ReadonlyArray<readonly [string, string]> => [
  ["README.md", read("README.md")],
  ...readdirSync(new URL("docs/", root))
    .filter((name) => name.endsWith(".md"))
    .map((name) => [`docs/${name}`, read(`docs/${name}`)] as const)
]

describe("documented facts", () => {
  it("no guide runs a .ts file with a bare `node`: the machine's Node 20 cannot; npm scripts and `npm exec` run the pinned Node", () => {
    // `npm exec -- node …` runs node_modules/.bin/node; `> node …` is npm echoing a script.
    const bare = /(?<!exec -- )(?<!> )\bnode (?:scripts|apps|bench|packages)\/[\w/.-]+\.ts\b/g
    const found = guides().flatMap(([name, text]) =>
      text
        .split("\n")
        .flatMap((line, index) => [...line.matchAll(bare)].map((match) => `${name}:${index + 1}: ${match[0]}`))
    )
    assert.deepStrictEqual(found, [])
  })

  it("docs/api.md's export examples show every column and field the export writes", () => {
    const api = read("docs/api.md")
    const header = api.split("\n").find((line) => line.startsWith("recommendation_id,run_id,"))
    assert.deepStrictEqual(header?.split(","), [...csvColumns])
    const example = /\{"data":\[(\{"recommendation_id"[\s\S]*?\})(?:, \.\.\.)?\]\}/.exec(api)
    assert.isNotNull(example, "docs/api.md shows a JSON export row")
    for (const field of Object.keys(ReportRowJson.fields)) assert.include(example?.[1], `"${field}":`, field)
  })

  it("docs/cli.md's command table names every marginctl command", () => {
    const cli = read("docs/cli.md")
    const table = cli.slice(cli.indexOf("## Commands"), cli.indexOf("## Conventions"))
    // Each top-level command is `export const <name>Command = Command.make("<name>"` in apps/cli/src.
    const commands = readdirSync(new URL("apps/cli/src/", root))
      .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
      .flatMap((name) => [
        ...read(`apps/cli/src/${name}`).matchAll(/^export const \w+Command = Command\.make\(\s*"([\w-]+)"/gm)
      ])
      .map((match) => match[1] ?? "")
    assert.includeMembers(commands, ["grant", "workspace", "migrate", "session-token", "demo"])
    for (const command of commands) assert.match(table, new RegExp(`^\\| \`${command}[ \`]`, "m"), command)
  })

  it("README's Node requirements are package.json's: the machine's Node (devEngines), the pinned Node that runs (engines)", () => {
    const manifest = Manifest(read("package.json"))
    const readme = read("README.md")
    const machine = /Node (\d+(?:\.\d+)*) or newer on the machine/.exec(readme)
    assert.isNotNull(machine, "README names the machine's Node")
    const runtime = manifest.devEngines?.runtime
    assert.strictEqual(runtime?.name, "node", "npm checks the machine's Node against devEngines, not engines")
    assert.deepStrictEqual(
      lowerBound(runtime?.version ?? ""),
      lowerBound(`>=${machine?.[1] ?? ""}`),
      "README and devEngines agree"
    )
    const pinned = manifest.devDependencies?.node ?? ""
    const pinnedVersion = pinned.split(".").map(Number)
    assert.include(readme, `pins Node ${pinnedVersion[0]}`, "README names the pinned Node")
    assert.isTrue(
      atLeast(pinnedVersion, lowerBound(manifest.engines?.node ?? "")),
      `engines.node ${manifest.engines?.node} admits the pinned node ${pinned}`
    )
  })

  it.effect("docs/cli.md's `store writes` example shows the idempotency key an approval gives its write-back", () =>
    Effect.gen(function* () {
      yield* seedWorkspace(wsA, "max")
      yield* connectStore(wsA)
      const recommendation = yield* seedRecommendation(yield* seedItem(wsA, { sku: "A", price: 1000, cost: 700 }), 1099)
      const recommendations = yield* Recommendations
      yield* recommendations.accept(wsA, recommendation.id, sessionActor)
      yield* recommendations.approve(wsA, recommendation.id, sessionActor, "approver")
      const writeBack = yield* WriteBackOutbox.use((outbox) => outbox.getByRecommendation(wsA, recommendation.id))
      const key = Option.getOrUndefined(writeBack)?.idempotencyKey ?? ""
      assert.strictEqual(key, recommendation.id, "the key is the recommendation's id")
      const documented = /"idempotency_key":"([^"…]*)…"/.exec(read("docs/cli.md"))
      assert.isNotNull(documented, "docs/cli.md shows an idempotency_key")
      // The example elides the id after its kind's prefix (`rec_…`).
      assert.strictEqual(documented?.[1], key.slice(0, key.indexOf("_") + 1))
    }).pipe(Effect.provide(useCases))
  )
})
