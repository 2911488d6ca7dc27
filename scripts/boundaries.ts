// The package order, checked: `npm run check` fails on any import that breaks it.
// The order is declared in the root package.json (`packageOrder`, lowest layer first); each package
// declares the workspace packages it imports (`dependencies`) and what it exports (`exports`).
// Rules, for every TypeScript file of packages/ and apps/ (and the @margin imports of bench/ and scripts/):
//   - an import of a workspace package its package.json does not declare;
//   - an import of a package of the same or a higher layer (against the order), and a declared
//     dependency that points so;
//   - an import of a subpath another package does not export, or a relative path into another package;
//   - a file loop: files that import each other in a cycle;
//   - packages/core importing anything but `effect` (its tests, `*.test.ts` beside the code, and its
//     kits in src/testing/ also @effect/vitest and fast-check), and its domain importing those;
//   - an app importing an app.
// docs/architecture.md explains the order.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, posix, relative, resolve } from "node:path"

export interface Violation {
  readonly file: string
  readonly rule: "undeclared" | "order" | "not-exported" | "cycle" | "core" | "app-imports-app"
  readonly message: string
}

interface Workspace {
  readonly name: string
  /** The path of its folder from the root: `packages/core`. */
  readonly dir: string
  readonly isApp: boolean
  readonly dependencies: ReadonlySet<string>
  readonly exports: unknown
  readonly layer: number
}

const scope = "@margin/"

const readJson = (path: string): Record<string, unknown> => JSON.parse(readFileSync(path, "utf8"))

const recordOf = (value: unknown): Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? { ...value } : {}

const walk = (dir: string): Array<string> =>
  existsSync(dir)
    ? readdirSync(dir).flatMap((name) => {
        const path = join(dir, name)
        if (name === "node_modules" || name.startsWith(".")) return []
        return statSync(path).isDirectory() ? walk(path) : /\.(ts|mts|js)$/.test(name) ? [path] : []
      })
    : []

// Static imports and exports (`import x from "..."`, `export * from "..."`, `import "..."`) and
// `import("...")` with a literal; template strings are not read.
const importPattern =
  /(?:^|[\s;])(?:import|export)\s[^"'`;]*?from\s*["']([^"']+)["']|(?:^|[\s;])import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g

export const importsOf = (text: string): Array<string> =>
  [...text.replace(/^\s*\/\/.*$/gm, "").matchAll(importPattern)].map((m) => m[1] ?? m[2] ?? m[3] ?? "")

/** What `exports` maps `subpath` ("." or "./x") to: a target, null when excluded, undefined when absent. */
export const exportTarget = (exports: unknown, subpath: string): string | null | undefined => {
  if (typeof exports === "string") return subpath === "." ? exports : undefined
  const map = recordOf(exports)
  const targetOf = (value: unknown): string | null | undefined =>
    typeof value === "string" ? value : value === null ? null : undefined
  if (subpath in map) return targetOf(map[subpath])
  // Patterns: the one with the longest prefix before its `*` wins (Node's rule).
  let best: { readonly key: string; readonly match: string } | undefined
  for (const key of Object.keys(map)) {
    const star = key.indexOf("*")
    if (star === -1) continue
    const prefix = key.slice(0, star)
    const suffix = key.slice(star + 1)
    if (subpath.length >= key.length - 1 && subpath.startsWith(prefix) && subpath.endsWith(suffix)) {
      if (best === undefined || prefix.length > best.key.indexOf("*")) {
        best = { key, match: subpath.slice(prefix.length, subpath.length - suffix.length) }
      }
    }
  }
  if (best === undefined) return undefined
  const target = targetOf(map[best.key])
  return typeof target === "string" ? target.replace("*", best.match) : target
}

const withExtension = (path: string): string | undefined =>
  [path, `${path}.ts`, join(path, "index.ts")].find(
    (candidate) => existsSync(candidate) && statSync(candidate).isFile()
  )

export const checkBoundaries = (root: string): Array<Violation> => {
  const rootPackage = readJson(join(root, "package.json"))
  const order = Array.isArray(rootPackage.packageOrder) ? rootPackage.packageOrder : []
  const layerOf = new Map<string, number>()
  order.forEach((names: unknown, layer: number) => {
    for (const name of Array.isArray(names) ? names : []) if (typeof name === "string") layerOf.set(name, layer)
  })

  const workspaces = new Map<string, Workspace>()
  for (const kind of ["packages", "apps"]) {
    const base = join(root, kind)
    if (!existsSync(base)) continue
    for (const folder of readdirSync(base)) {
      const manifest = join(base, folder, "package.json")
      if (!existsSync(manifest)) continue
      const json = readJson(manifest)
      const name = String(json.name ?? "").replace(scope, "")
      const dependencies = Object.keys({ ...recordOf(json.dependencies), ...recordOf(json.devDependencies) })
        .filter((dependency) => dependency.startsWith(scope))
        .map((dependency) => dependency.slice(scope.length))
      workspaces.set(name, {
        name,
        dir: `${kind}/${folder}`,
        isApp: kind === "apps",
        dependencies: new Set(dependencies),
        exports: json.exports,
        layer: layerOf.get(name) ?? -1
      })
    }
  }

  const violations: Array<Violation> = []
  const report = (file: string, rule: Violation["rule"], message: string) => violations.push({ file, rule, message })

  for (const workspace of workspaces.values()) {
    if (workspace.layer === -1) {
      report(`${workspace.dir}/package.json`, "order", `@margin/${workspace.name} is in no layer of packageOrder`)
    }
    for (const dependency of workspace.dependencies) {
      const target = workspaces.get(dependency)
      if (target !== undefined && !(target.layer < workspace.layer)) {
        report(
          `${workspace.dir}/package.json`,
          "order",
          `declares @margin/${dependency} (layer ${target.layer}), not below its own layer ${workspace.layer}`
        )
      }
    }
  }

  const workspaceOfFile = (file: string): Workspace | undefined =>
    [...workspaces.values()].find((workspace) => file.startsWith(`${workspace.dir}/`))

  /** The file a package import names, if that subpath is exported. */
  const resolvePackage = (spec: string): { readonly workspace: Workspace; readonly file?: string } | undefined => {
    const [name = "", ...rest] = spec.slice(scope.length).split("/")
    const workspace = workspaces.get(name)
    if (workspace === undefined) return undefined
    const target = exportTarget(workspace.exports, rest.length === 0 ? "." : `./${rest.join("/")}`)
    if (typeof target !== "string") return { workspace }
    const file = withExtension(join(root, workspace.dir, target))
    return file === undefined ? { workspace } : { workspace, file: relative(root, file) }
  }

  const sources = ["packages", "apps", "bench", "scripts"].flatMap((dir) =>
    walk(join(root, dir)).map((path) => relative(root, path))
  )
  const graph = new Map<string, Array<string>>()

  for (const file of sources) {
    const workspace = workspaceOfFile(file)
    const edges: Array<string> = []
    graph.set(file, edges)
    const isCore = workspace?.name === "core"
    // The domain is core's code less its tests (`*.test.ts`, beside the code) and kits (`src/testing/`).
    const isCoreTestCode = (path: string): boolean =>
      path.endsWith(".test.ts") || path.startsWith(`${workspace?.dir}/src/testing/`)
    const inCoreSrc = isCore && !isCoreTestCode(file)
    for (const spec of importsOf(readFileSync(join(root, file), "utf8"))) {
      if (spec.startsWith("./") || spec.startsWith("../")) {
        const target = withExtension(posix.join(root, dirname(file), spec))
        if (target === undefined) continue
        const targetFile = relative(root, target)
        const owner = workspaceOfFile(targetFile)
        if (owner !== workspace) {
          report(
            file,
            "not-exported",
            `imports "${spec}": a path into ${owner === undefined ? targetFile : `@margin/${owner.name}`}; import its package instead`
          )
        } else if (inCoreSrc && isCoreTestCode(targetFile)) {
          report(file, "core", `imports "${spec}": the domain never imports its tests or testing/`)
        }
        edges.push(targetFile)
        continue
      }
      if (isCore) {
        const allowed =
          spec === "effect" ||
          spec.startsWith("effect/") ||
          (!inCoreSrc && (spec === "@effect/vitest" || spec === "fast-check"))
        if (!allowed) {
          report(
            file,
            "core",
            `imports "${spec}": core imports only effect${inCoreSrc ? "" : " (its tests: @effect/vitest, fast-check)"}`
          )
        }
        continue
      }
      if (!spec.startsWith(scope)) continue
      const resolved = resolvePackage(spec)
      if (resolved === undefined) {
        report(file, "undeclared", `imports "${spec}": no workspace package has that name`)
        continue
      }
      const target = resolved.workspace
      if (resolved.file === undefined) {
        report(file, "not-exported", `imports "${spec}": @margin/${target.name} does not export that subpath`)
      } else {
        edges.push(resolved.file)
      }
      if (workspace === undefined || target === workspace) continue
      if (workspace.isApp && target.isApp) {
        report(file, "app-imports-app", `imports "${spec}": an app never imports another app`)
        continue
      }
      if (!workspace.dependencies.has(target.name)) {
        report(
          file,
          "undeclared",
          `imports "${spec}": @margin/${target.name} is not declared in ${workspace.dir}/package.json`
        )
      }
      if (!(target.layer < workspace.layer)) {
        report(
          file,
          "order",
          `imports "${spec}": @margin/${target.name} (layer ${target.layer}) is not below @margin/${workspace.name} (layer ${workspace.layer})`
        )
      }
    }
  }

  // File loops: the strongly connected components of more than one file (or a file importing itself).
  let index = 0
  const indexOf = new Map<string, number>()
  const lowOf = new Map<string, number>()
  const stack: Array<string> = []
  const onStack = new Set<string>()
  const visit = (start: string) => {
    // Iterative Tarjan: deep import chains must not overflow the call stack.
    const frames: Array<{ readonly node: string; next: number }> = [{ node: start, next: 0 }]
    indexOf.set(start, index)
    lowOf.set(start, index++)
    stack.push(start)
    onStack.add(start)
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]
      if (frame === undefined) break
      const edges = graph.get(frame.node) ?? []
      if (frame.next < edges.length) {
        const next = edges[frame.next++] ?? ""
        if (!indexOf.has(next)) {
          indexOf.set(next, index)
          lowOf.set(next, index++)
          stack.push(next)
          onStack.add(next)
          frames.push({ node: next, next: 0 })
        } else if (onStack.has(next)) {
          lowOf.set(frame.node, Math.min(lowOf.get(frame.node) ?? 0, indexOf.get(next) ?? 0))
        }
        continue
      }
      frames.pop()
      const parent = frames[frames.length - 1]
      if (parent !== undefined) {
        lowOf.set(parent.node, Math.min(lowOf.get(parent.node) ?? 0, lowOf.get(frame.node) ?? 0))
      }
      if (lowOf.get(frame.node) === indexOf.get(frame.node)) {
        const component: Array<string> = []
        let member: string | undefined
        do {
          member = stack.pop()
          if (member === undefined) break
          onStack.delete(member)
          component.push(member)
        } while (member !== frame.node)
        const selfLoop = component.length === 1 && (graph.get(frame.node) ?? []).includes(frame.node)
        if (component.length > 1 || selfLoop) {
          const loop = shortestLoop(component.sort())
          const more = component.length > loop.length - 1 ? ` (one of the loops among ${component.length} files)` : ""
          report(loop[0] ?? frame.node, "cycle", `a file loop: ${loop.join(" -> ")}${more}`)
        }
      }
    }
  }
  /** The shortest loop from the first file of a component back to it, through the component. */
  const shortestLoop = (component: ReadonlyArray<string>): Array<string> => {
    const start = component[0] ?? ""
    const members = new Set(component)
    const cameFrom = new Map<string, string>()
    const queue = [start]
    for (let at = 0; at < queue.length; at++) {
      const node = queue[at] ?? ""
      for (const next of graph.get(node) ?? []) {
        if (next === start) {
          const path = [start]
          for (let step: string | undefined = node; step !== undefined && step !== start; step = cameFrom.get(step)) {
            path.splice(1, 0, step)
          }
          return [...path, start]
        }
        if (members.has(next) && !cameFrom.has(next)) {
          cameFrom.set(next, node)
          queue.push(next)
        }
      }
    }
    return [...component, start]
  }

  for (const file of graph.keys()) if (!indexOf.has(file)) visit(file)

  return violations
}

if (import.meta.main) {
  const root = resolve(dirname(new URL(import.meta.url).pathname), "..")
  const violations = checkBoundaries(root)
  if (violations.length > 0) {
    console.error(`Boundary violations:\n${violations.map((v) => `${v.file}: ${v.message} [${v.rule}]`).join("\n")}`)
    process.exit(1)
  }
  console.log("boundaries: ok")
}
