#!/usr/bin/env node
// Launcher of marginctl. The CLI is TypeScript run directly by Node >= 24 (type stripping, and the
// Node that Effect 4 requires). When started by an older `node` on the PATH, it re-runs itself on
// the Node 24 the repository installs as a dev dependency (`node_modules/.bin/node`).
import { spawnSync } from "node:child_process"
import { existsSync, realpathSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const here = dirname(realpathSync(fileURLToPath(import.meta.url)))
const main = join(here, "..", "src", "main.ts")
const major = Number(process.versions.node.split(".")[0])

if (major >= 24) {
  await import(pathToFileURL(main).href)
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
  const result = spawnSync(node, [main, ...process.argv.slice(2)], { stdio: "inherit" })
  if (result.error) {
    process.stderr.write(`marginctl: could not start ${node}: ${result.error.message}\n`)
    process.exit(1)
  }
  process.exit(result.status ?? 1)
}
