// Fails when an import crosses a boundary of the hexagon:
// packages/core imports only `effect` (and its own files); no app imports another app;
// no package imports an app.
import { readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, relative } from "node:path"

const root = new URL("..", import.meta.url).pathname
const importPattern = /(?:import|export)\s[^"']*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g

const walk = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (name === "node_modules") return []
    return statSync(path).isDirectory() ? walk(path) : /\.(ts|mts)$/.test(name) ? [path] : []
  })

const importsOf = (file: string): Array<string> =>
  [...readFileSync(file, "utf8").matchAll(importPattern)].map((m) => m[1] ?? m[2] ?? "")

const violations: Array<string> = []
const check = (dir: string, allowed: (spec: string) => boolean, rule: string) => {
  for (const file of walk(join(root, dir))) {
    for (const spec of importsOf(file)) {
      if (!allowed(spec)) violations.push(`${relative(root, file)} imports "${spec}": ${rule}`)
    }
  }
}

const isRelative = (spec: string) => spec.startsWith("./") || spec.startsWith("../")
const apps = readdirSync(join(root, "apps"))
// `@margin/mcp/x` is the app mcp; `@margin/mcp-server/x` is not.
const importsPackage = (spec: string, name: string) => spec === `@margin/${name}` || spec.startsWith(`@margin/${name}/`)

// The domain itself: nothing but effect. Its tests (packages/core/test) and the contract suites and
// fixtures other packages run against their adapters (packages/core/testing) live outside src.
check(
  "packages/core/src",
  (spec) => spec === "effect" || spec.startsWith("effect/") || isRelative(spec),
  "packages/core/src imports only effect (tests and testing/ live outside src)"
)
const coreSrc = join(root, "packages/core/src")
for (const file of walk(coreSrc)) {
  for (const spec of importsOf(file).filter(isRelative)) {
    if (!join(dirname(file), spec).startsWith(`${coreSrc}/`))
      violations.push(`${relative(root, file)} imports "${spec}": the domain never imports its tests or testing/`)
  }
}
const coreTestImports = (spec: string) =>
  spec === "effect" ||
  spec.startsWith("effect/") ||
  isRelative(spec) ||
  spec === "fast-check" ||
  spec === "@effect/vitest"
check("packages/core/test", coreTestImports, "core's tests use effect, @effect/vitest, fast-check and core")
check(
  "packages/core/testing",
  coreTestImports,
  "core's contract suites use effect, @effect/vitest, fast-check and core"
)
for (const app of apps) {
  check(
    `apps/${app}`,
    (spec) => !apps.some((other) => other !== app && importsPackage(spec, other)),
    "an app never imports another app"
  )
}
for (const pkg of readdirSync(join(root, "packages"))) {
  check(`packages/${pkg}`, (spec) => !apps.some((a) => importsPackage(spec, a)), "a package never imports an app")
}

if (violations.length > 0) {
  console.error(`Boundary violations:\n${violations.join("\n")}`)
  process.exit(1)
}
console.log("boundaries: ok")
