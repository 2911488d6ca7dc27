import { spawnSync } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { assert, describe, it } from "@effect/vitest"

/**
 * docs/client.md, "Install": the client as a user gets it. Builds the publishable package
 * (scripts/build-client.ts), packs it with `npm pack`, installs the tarball with `effect` into an
 * empty project (from npm's cache, offline when it holds them), loads it with Node and compiles
 * every ```ts example block of docs/client.md under `tsc --strict`.
 */

const root = join(dirname(fileURLToPath(import.meta.url)), "../../..")

/** The command's output; a failure shows what it printed (tsc prints its errors on stdout). */
const run = (command: string, args: ReadonlyArray<string>, cwd: string): string => {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })
  if (result.status !== 0) {
    assert.fail(`${command} ${args.join(" ")} exited ${result.status}:\n${result.stdout}\n${result.stderr}`)
  }
  return result.stdout
}

const node = (args: ReadonlyArray<string>, cwd: string) => run(process.execPath, args, cwd)

/** The version of a dependency of the repository, as its package.json pins it. */
const pinned = (name: string): string => {
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"))
  const version = manifest.dependencies?.[name] ?? manifest.devDependencies?.[name]
  if (typeof version !== "string") throw new Error(`package.json pins no ${name}`)
  return version
}

/** The code of every block opened with ```ts example. */
const examplesOf = (markdown: string): ReadonlyArray<string> =>
  [...markdown.matchAll(/^```ts example\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? "")

describe("the packed @margin/client", () => {
  it("installs from its tarball alone and the docs' examples compile under tsc --strict", () => {
    const project = mkdtempSync(join(tmpdir(), "margin-client-"))
    try {
      node([join(root, "scripts/build-client.ts")], root)
      const packed = JSON.parse(
        run("npm", ["pack", "--json", "--pack-destination", project, join(root, "packages/client/dist/package")], root)
      )
      const tarball: string = packed[0].filename
      // Nothing but the bundle, its declarations, the manifest and the README.
      const files: ReadonlyArray<string> = packed[0].files.map((file: { readonly path: string }) => file.path)
      assert.deepStrictEqual(files.filter((path) => !path.startsWith("types/")).sort(), [
        "README.md",
        "index.js",
        "package.json"
      ])
      assert.isTrue(files.every((path) => !path.endsWith(".ts") || path.endsWith(".d.ts")))

      writeFileSync(join(project, "package.json"), JSON.stringify({ name: "fresh", private: true, type: "module" }))
      run(
        "npm",
        [
          "install",
          "--prefer-offline",
          "--no-audit",
          "--no-fund",
          "--ignore-scripts",
          `./${tarball}`,
          `effect@${pinned("effect")}`,
          `@effect/platform-node@${pinned("@effect/platform-node")}`,
          `@types/node@${pinned("@types/node")}`
        ],
        project
      )
      const manifest = JSON.parse(readFileSync(join(project, "node_modules/@margin/client/package.json"), "utf8"))
      assert.deepStrictEqual(manifest.peerDependencies, { effect: `~${pinned("effect")}` })
      assert.isUndefined(manifest.dependencies)
      // The only @margin package installed is the client.
      assert.deepStrictEqual(readdirSync(join(project, "node_modules/@margin")), ["client"])

      // The JavaScript loads with the project's effect, and exports both faces.
      const loaded = node(
        [
          "--input-type=module",
          "-e",
          "const m = await import('@margin/client'); console.log(Object.keys(m).sort().join(' '))"
        ],
        project
      )
      for (const name of ["MarginClient", "createClient", "isApiError", "isMarginError", "TimeoutError"]) {
        assert.include(loaded.trim().split(" "), name)
      }

      const examples = examplesOf(readFileSync(join(root, "docs/client.md"), "utf8"))
      assert.isAtLeast(examples.length, 3)
      for (const [n, code] of examples.entries()) writeFileSync(join(project, `example${n + 1}.ts`), code)
      writeFileSync(
        join(project, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            target: "es2022",
            // effect's own declarations name DOM types (CryptoKey); ours are checked too (no skipLibCheck).
            lib: ["es2022", "dom"],
            module: "nodenext",
            moduleResolution: "nodenext",
            types: ["node"],
            noEmit: true
          },
          include: ["*.ts"]
        })
      )
      node([join(root, "node_modules/typescript/bin/tsc"), "-p", project], project)
    } finally {
      rmSync(project, { recursive: true, force: true })
    }
  }, 300_000)
})
