#!/usr/bin/env node
// Launcher of marginctl. It runs the bundle of apps/cli/dist (built by `npm install`, see
// scripts/build-cli.ts) while that is newer than every source it was built from (freshBundle of
// @margin/runtime/launch), else the TypeScript sources directly (Node >= 24 strips the types).
// Node's compile cache keeps the compiled code between runs. When started by an older `node` on the PATH, it re-runs itself on
// the Node 24 the repository installs as a dev dependency (`node_modules/.bin/node`).
import { spawnSync } from "node:child_process"
import { existsSync, realpathSync } from "node:fs"
import module from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const here = dirname(realpathSync(fileURLToPath(import.meta.url)))
const main = join(here, "..", "src", "main.ts")
const dist = join(here, "..", "dist")
const major = Number(process.versions.node.split(".")[0])

if (major >= 24) {
  module.enableCompileCache?.()
  const { freshBundle } = await import("@margin/runtime/launch")
  await import(pathToFileURL(freshBundle(dist, "marginctl") ?? main).href)
} else {
  let dir = here
  let node = null
  while (node === null) {
    const candidate = join(dir, "node_modules", ".bin", "node")
    if (existsSync(candidate)) node = candidate
    else if (dirname(dir) === dir) break
    else dir = dirname(dir)
  }
  if (node === null) {
    process.stderr.write(
      `marginctl: needs Node >= 24 (this is ${process.version}); run npm install at the repository root first\n`
    )
    process.exit(1)
  }
  const result = spawnSync(node, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: "inherit" })
  if (result.error) {
    process.stderr.write(`marginctl: could not start ${node}: ${result.error.message}\n`)
    process.exit(1)
  }
  process.exit(result.status ?? 1)
}
