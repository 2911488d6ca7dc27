import { spawnSync } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { TestDatabase } from "@margin/postgres/testing/TestDatabase"
import { startRestServer } from "@margin/runtime/testing/ChildProcesses"
import { Effect, Schema } from "effect"

/**
 * The guides' examples, run: every command of a block opened with ```console runnable or
 * ```sh runnable in docs/*.md and README.md, against a REST server on a fresh database seeded by
 * `marginctl demo` (what `npm start` does), so that the documentation cannot drift from the service.
 *
 * In a runnable block a line `$ <command>` (continued by lines ending in `\`) is run with bash;
 * `$ # the same request again` runs the previous command again (another `$ # …` is a comment). The lines after a command, up to the next one, are what
 * it printed: an `HTTP/1.1 <status>` line there is the status a curl must answer (else any 2xx).
 * A marginctl command must exit 0, or the status of an `# exit status N` comment on its line.
 * `npx marginctl` runs the repository's binary by its path (npx's lookup costs a second), and
 * `http://127.0.0.1:8787` is the test server's address. The variables the guides use:
 * BASE, TOKEN (the demo owner's), APPROVER, WORKSPACE, RUN, REC and REC2 (new recommendations),
 * ALERT and ALERT2 (open alerts).
 */

const root = new URL("../", import.meta.url).pathname
const marginctl = join(root, "apps/cli/bin/marginctl.js")

interface Example {
  readonly where: string
  readonly command: string
  /** The HTTP status a curl must answer; undefined: any 2xx. */
  readonly status: number | undefined
  /** The exit status a marginctl command must end with. */
  readonly exit: number
}

/** The examples of one guide's runnable blocks, in order. */
const examplesOf = (name: string, markdown: string): ReadonlyArray<Example> => {
  const examples: Array<Example> = []
  const lines = markdown.split("\n")
  let inBlock = false
  let previous: string | undefined
  for (let index = 0; index < lines.length; index++) {
    // A block may sit indented in a list item.
    const line = (lines[index] ?? "").trimStart()
    if (!inBlock) {
      inBlock = /^```(?:console|sh) runnable$/.test(line)
      continue
    }
    if (line.startsWith("```")) {
      inBlock = false
      continue
    }
    if (!line.startsWith("$ ")) continue
    const where = `${name}:${index + 1}`
    let command = line.slice(2)
    while (command.endsWith("\\") && index + 1 < lines.length) {
      index += 1
      command = `${command.slice(0, -1)} ${(lines[index] ?? "").trim()}`
    }
    if (command.startsWith("#")) {
      // A comment, or `$ # the same request again`.
      if (!/same request again/.test(command)) continue
      if (previous === undefined) throw new Error(`${where}: nothing came before to repeat`)
      command = previous
    }
    previous = command
    const after = lines.slice(index + 1).map((next) => next.trimStart())
    const printed = after.findIndex((next) => next.startsWith("$ ") || next.startsWith("```"))
    const output = printed === -1 ? after : after.slice(0, printed)
    const status = output.map((next) => /^HTTP\/1\.1 (\d{3})\b/.exec(next)?.[1]).find((found) => found !== undefined)
    const exit = /# exit status (\d+)/.exec(line)?.[1]
    examples.push({
      where,
      command,
      status: status === undefined ? undefined : Number(status),
      exit: exit === undefined ? 0 : Number(exit)
    })
  }
  return examples
}

const guides = (): ReadonlyArray<readonly [string, string]> => [
  ["README.md", readFileSync(join(root, "README.md"), "utf8")],
  ...readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => [`docs/${name}`, readFileSync(join(root, "docs", name), "utf8")] as const)
]

// Every curl prints its status last, on a line of its own (cut off when its output is piped to head).
const prelude = `curl() { command curl -w '\\n__status__ %{http_code}\\n' "$@"; }\n`

const run = (script: string, env: Readonly<Record<string, string>>, cwd: string) => {
  const result = spawnSync("bash", ["-c", prelude + script], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, ...env },
    timeout: 60_000
  })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

/** What `marginctl demo --json` says that the examples use. */
const Demo = Schema.fromJsonString(
  Schema.Struct({
    workspace_id: Schema.String,
    tokens: Schema.Array(Schema.Struct({ role: Schema.String, token: Schema.String })),
    run: Schema.Struct({ id: Schema.String })
  })
)

const seedDemo = (env: Readonly<Record<string, string>>) => {
  const result = spawnSync(process.execPath, [marginctl, "demo", "--json"], {
    encoding: "utf8",
    env: { ...process.env, ...env }
  })
  assert.strictEqual(result.status, 0, result.stderr)
  return Schema.decodeUnknownSync(Demo)(result.stdout)
}

const Page = Schema.Struct({ data: Schema.Array(Schema.Struct({ id: Schema.String })) })

const firstId = (baseUrl: string, token: string, path: string, index = 0) =>
  Effect.promise(async () => {
    const answer = await fetch(`${baseUrl}/api/v1${path}`, { headers: { authorization: `Bearer ${token}` } })
    const body = Schema.decodeUnknownSync(Page)(await answer.json())
    const id = body.data[index]?.id
    assert.isString(id, `no ${path} [${index}] in the demo`)
    return id ?? ""
  })

describe("examplesOf", () => {
  it("reads commands, continuations, repeats, statuses and exit codes of runnable blocks only", () => {
    const markdown = [
      "```console",
      "$ curl -s not-runnable",
      "```",
      "```console runnable",
      '$ curl -s -X POST "$BASE/runs" \\',
      '    -d "{}"',
      "HTTP/1.1 202 Accepted",
      "$ # the same request again",
      "$ # a comment",
      "$ npx marginctl workspace show ws_nope   # exit status 3",
      "```"
    ].join("\n")
    assert.deepStrictEqual(examplesOf("doc.md", markdown), [
      { where: "doc.md:5", command: 'curl -s -X POST "$BASE/runs"  -d "{}"', status: 202, exit: 0 },
      { where: "doc.md:8", command: 'curl -s -X POST "$BASE/runs"  -d "{}"', status: undefined, exit: 0 },
      {
        where: "doc.md:10",
        command: "npx marginctl workspace show ws_nope   # exit status 3",
        status: undefined,
        exit: 3
      }
    ])
  })
})

describe("the documented examples", () => {
  // Live clock: the server process and the commands take real time.
  it.live(
    "every runnable curl and marginctl example of the guides answers as documented, against npm start's demo",
    () =>
      Effect.gen(function* () {
        const database = { DATABASE_URL: (yield* TestDatabase).url }
        const demo = seedDemo(database)
        const tokenOf = (role: string): string => demo.tokens.find((token) => token.role === role)?.token ?? ""
        const server = yield* startRestServer("docs", database)
        const token = tokenOf("owner")
        const variables = {
          ...database,
          BASE: `${server.baseUrl}/api/v1`,
          TOKEN: token,
          APPROVER: tokenOf("approver"),
          WORKSPACE: demo.workspace_id,
          RUN: demo.run.id,
          REC: yield* firstId(server.baseUrl, token, "/recommendations?status=new&limit=2"),
          REC2: yield* firstId(server.baseUrl, token, "/recommendations?status=new&limit=2", 1),
          ALERT: yield* firstId(server.baseUrl, token, "/alerts?status=open&limit=2"),
          ALERT2: yield* firstId(server.baseUrl, token, "/alerts?status=open&limit=2", 1),
          MARGINCTL: marginctl
        }
        const examples = guides().flatMap(([name, text]) => examplesOf(name, text))
        assert.isAtLeast(examples.length, 20)
        const cwd = mkdtempSync(join(tmpdir(), "margin-docs-"))
        const failures: Array<string> = []
        for (const example of examples) {
          const script = example.command
            .replaceAll("http://127.0.0.1:8787", server.baseUrl)
            .replace(/\bnpx marginctl\b/g, '"$MARGINCTL"')
          const outcome = run(script, variables, cwd)
          const status = /__status__ (\d{3})\s*$/.exec(outcome.stdout)?.[1]
          const said = `${example.where}: ${example.command}\n${outcome.stdout.slice(0, 600)}${outcome.stderr.slice(0, 600)}`
          if (outcome.code !== example.exit) failures.push(`exit ${outcome.code}, expected ${example.exit}: ${said}`)
          else if (status !== undefined && example.status !== undefined && Number(status) !== example.status)
            failures.push(`HTTP ${status}, expected ${example.status}: ${said}`)
          else if (status !== undefined && example.status === undefined && !status.startsWith("2"))
            failures.push(`HTTP ${status}, expected a 2xx: ${said}`)
        }
        rmSync(cwd, { recursive: true, force: true })
        assert.deepStrictEqual(failures, [], failures.join("\n\n"))
      }).pipe(Effect.scoped, Effect.provide(TestDatabase.layer)),
    180_000
  )
})
