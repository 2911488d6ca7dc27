// npm run lint:openapi: writes the OpenAPI document from the HttpApi definition
// (scripts/openapi-document.ts, no server), then lints it with Redocly CLI (`recommended`,
// redocly.yaml) and Spectral (`spectral:oas`, .spectral.yaml). Fails on any error or warning of
// either, and prints both counts. Run by .ci/run. `node scripts/lint-openapi.ts <file>` lints that
// document instead (e.g. one fetched from a running server).
import { spawnSync } from "node:child_process"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { Option, Schema } from "effect"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const bin = (name: string) => join(root, "node_modules/.bin", name)

const run = (command: string, args: ReadonlyArray<string>) => {
  const result = spawnSync(command, args, {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    // Redocly CLI otherwise sends usage telemetry and looks for a newer version over the network.
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" }
  })
  if (result.error !== undefined) throw result.error
  return result
}

// A document given on the command line is linted as it is (e.g. one fetched from a running server).
const given = process.argv[2]
const document = given ?? ".ci/openapi.json"
if (given === undefined) {
  const written = run(process.execPath, ["scripts/openapi-document.ts", document])
  if (written.status !== 0) {
    process.stderr.write(written.stderr)
    process.exit(1)
  }
}

interface Problem {
  readonly tool: string
  readonly severity: "error" | "warning"
  readonly rule: string
  readonly where: string
  readonly message: string
}

const RedoclyReport = Schema.fromJsonString(
  Schema.Struct({
    problems: Schema.Array(
      Schema.Struct({
        ruleId: Schema.String,
        severity: Schema.String,
        message: Schema.String,
        location: Schema.optionalKey(Schema.Array(Schema.Struct({ pointer: Schema.optionalKey(Schema.String) })))
      })
    )
  })
)

const SpectralReport = Schema.fromJsonString(
  Schema.Array(
    Schema.Struct({
      code: Schema.Union([Schema.String, Schema.Number]),
      // 0 error, 1 warning, 2 information, 3 hint.
      severity: Schema.Number,
      message: Schema.String,
      path: Schema.Array(Schema.Union([Schema.String, Schema.Number]))
    })
  )
)

// Each CLI's script run by this very Node (24), whatever `node` comes first on PATH.
const redocly = run(process.execPath, [bin("redocly"), "lint", "--config", "redocly.yaml", "--format=json", document])
const spectral = run(process.execPath, [
  bin("spectral"),
  "lint",
  "--ruleset",
  ".spectral.yaml",
  "--format",
  "json",
  "--quiet",
  document
])
const redoclyReport = Schema.decodeUnknownOption(RedoclyReport)(redocly.stdout)
const spectralReport = Schema.decodeUnknownOption(SpectralReport)(spectral.stdout)
if (Option.isNone(redoclyReport) || Option.isNone(spectralReport)) {
  process.stderr.write(`a linter did not report: ${redocly.stderr}${spectral.stderr}`)
  process.exit(1)
}

const problems: Array<Problem> = [
  ...redoclyReport.value.problems.map((problem) => ({
    tool: "redocly",
    severity: problem.severity === "error" ? ("error" as const) : ("warning" as const),
    rule: problem.ruleId,
    where: problem.location?.[0]?.pointer ?? "",
    message: problem.message
  })),
  ...spectralReport.value
    .filter((problem) => problem.severity <= 1)
    .map((problem) => ({
      tool: "spectral",
      severity: problem.severity === 0 ? ("error" as const) : ("warning" as const),
      rule: String(problem.code),
      where: problem.path.join("."),
      message: problem.message
    }))
]
for (const problem of problems) {
  console.log(`${problem.tool} ${problem.severity} ${problem.rule} ${problem.where}: ${problem.message}`)
}
const count = (tool: string, severity: string) =>
  problems.filter((problem) => problem.tool === tool && problem.severity === severity).length
console.log(
  `redocly (recommended): ${count("redocly", "error")} errors, ${count("redocly", "warning")} warnings; ` +
    `spectral (spectral:oas): ${count("spectral", "error")} errors, ${count("spectral", "warning")} warnings`
)
process.exit(problems.length === 0 ? 0 : 1)
