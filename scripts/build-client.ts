// Builds @margin/client for publishing into packages/client/dist/package, a package that stands
// alone (`npm run build:client`; `npm pack packages/client/dist/package` makes the tarball):
//   index.js    the client and what it uses of @margin/rest/api, @margin/edge/wire and
//               @margin/core, bundled by esbuild into one ES module; `effect` left outside, a peer
//               dependency, so the application's Effect is the client's;
//   types/      the declarations of the same files (tsc), laid out as the workspace is
//               (types/client/src/index.d.ts, types/core/src/Ids.d.ts...), with every
//               `@margin/<package>/<path>` import rewritten to the relative path of its file: the
//               tarball names no package of ours;
//   package.json, README.md (docs/client.md).
// The workspace package itself stays private, its sources what the repository uses.
import { spawnSync } from "node:child_process"
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join, relative, sep } from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const packages = join(root, "packages")
const client = join(packages, "client")
const out = join(client, "dist/package")
const types = join(out, "types")

const readJson = (path: string): Record<string, unknown> => JSON.parse(readFileSync(path, "utf8"))

rmSync(join(client, "dist"), { recursive: true, force: true })
mkdirSync(types, { recursive: true })

await build({
  absWorkingDir: root,
  entryPoints: { index: "packages/client/src/index.ts" },
  outdir: out,
  bundle: true,
  format: "esm",
  // Browsers, Node, Deno, workers: nothing of a platform is imported.
  platform: "neutral",
  target: "es2022",
  external: ["effect", "effect/*"],
  logLevel: "warning"
})

const tsc = (args: ReadonlyArray<string>) => {
  const result = spawnSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), ...args], {
    cwd: root,
    encoding: "utf8"
  })
  if (result.status !== 0) {
    process.stderr.write(result.stdout + result.stderr)
    process.exit(1)
  }
  return result.stdout
}

// The workspace files the client's program holds: tsc emits declarations only for a program's own
// files, and a file reached through node_modules (our packages are linked there) is not one.
const sources = tsc(["-p", join(client, "tsconfig.json"), "--listFilesOnly"])
  .split("\n")
  .map((line) => line.trim())
  .filter((path) => path.startsWith(packages + sep) && !path.includes(`${sep}node_modules${sep}`))
const config = join(client, "dist/tsconfig.types.json")
writeFileSync(
  config,
  JSON.stringify({
    extends: "../../../tsconfig.base.json",
    compilerOptions: {
      noEmit: false,
      declaration: true,
      emitDeclarationOnly: true,
      rootDir: packages,
      outDir: types
    },
    files: sources
  })
)
tsc(["-p", config])

/** Where `@margin/<name>/<subpath>` leads, by the package's exports: the source file, relative to packages/. */
const exportsOf = (name: string): ReadonlyArray<readonly [string, string | null]> => {
  const exports = readJson(join(packages, name, "package.json")).exports
  return typeof exports === "object" && exports !== null
    ? Object.entries(exports).map(([key, target]) => [key, typeof target === "string" ? target : null] as const)
    : []
}

const sourceOf = (specifier: string): string | undefined => {
  const match = /^@margin\/([^/]+)(?:\/(.*))?$/.exec(specifier)
  if (match?.[1] === undefined) return undefined
  const subpath = match[2] === undefined ? "." : `./${match[2]}`
  for (const [key, target] of exportsOf(match[1])) {
    if (target === null) continue
    const star = key.indexOf("*")
    if (star === -1 && key === subpath) return join(match[1], target)
    if (star !== -1 && subpath.startsWith(key.slice(0, star)) && subpath.endsWith(key.slice(star + 1))) {
      const hole = subpath.slice(star, subpath.length - (key.length - star - 1))
      return join(match[1], target.replace("*", hole))
    }
  }
  return undefined
}

const declarations = (directory: string): ReadonlyArray<string> =>
  readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? declarations(join(directory, entry.name))
      : entry.name.endsWith(".d.ts")
        ? [join(directory, entry.name)]
        : []
  )

const unresolved: Array<string> = []
for (const file of declarations(types)) {
  const text = readFileSync(file, "utf8").replace(
    /(from |import\()"(@margin\/[^"]+)"/g,
    (_, lead: string, specifier: string) => {
      const source = sourceOf(specifier)
      if (source === undefined) {
        unresolved.push(`${relative(types, file)}: ${specifier}`)
        return `${lead}"${specifier}"`
      }
      const target = join(types, source.replace(/\.ts$/, ".js"))
      const path = relative(dirname(file), target).split(sep).join("/")
      return `${lead}"${path.startsWith(".") ? path : `./${path}`}"`
    }
  )
  // Relative imports name the sources (`./Ids.ts`); the declarations beside them are `./Ids.d.ts`.
  writeFileSync(file, text.replace(/(from |import\()"(\.{1,2}\/[^"]+)\.ts"/g, '$1"$2.js"'))
}
if (unresolved.length > 0) {
  process.stderr.write(`imports of our packages left in the declarations:\n${unresolved.join("\n")}\n`)
  process.exit(1)
}

const workspace = readJson(join(client, "package.json"))
const rootPackage = readJson(join(root, "package.json"))
const dependencies = rootPackage.dependencies
const effectVersion =
  typeof dependencies === "object" && dependencies !== null && "effect" in dependencies
    ? dependencies.effect
    : undefined
if (typeof effectVersion !== "string") throw new Error("the root package.json names no effect version")
writeFileSync(
  join(out, "package.json"),
  `${JSON.stringify(
    {
      name: workspace.name,
      version: workspace.version,
      description: workspace.description,
      license: "UNLICENSED",
      type: "module",
      sideEffects: false,
      exports: { ".": { types: "./types/client/src/index.d.ts", default: "./index.js" } },
      types: "./types/client/src/index.d.ts",
      files: ["index.js", "types", "README.md"],
      // The HttpApi modules the client is derived with move between Effect's minor versions.
      peerDependencies: { effect: `~${effectVersion}` },
      engines: { node: ">=20" }
    },
    null,
    2
  )}\n`
)
copyFileSync(join(root, "docs/client.md"), join(out, "README.md"))
rmSync(config)
console.log(`built ${relative(root, out)}: index.js and ${declarations(types).length} declaration files`)
