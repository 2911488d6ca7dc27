#!/usr/bin/env node
// Launcher of the REST server's entry points: `node apps/http/bin/run.js start` (`npm start`: the
// demo seed, then the server) or `main` (`npm run serve`). It runs the bundle of apps/http/dist
// (built by `npm install`, see scripts/build-cli.ts) while that is newer than every source it was
// built from, else the TypeScript sources (src/<entry>.ts). Node's compile cache keeps the compiled
// code between runs. Needs the Node 24 the repository pins (npm scripts run on it).
import module from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { freshBundle } from "@margin/runtime/launch"

const entries = ["start", "main"]
const entry = process.argv[2] ?? ""
if (!entries.includes(entry)) {
  process.stderr.write(`usage: node apps/http/bin/run.js ${entries.join("|")}\n`)
  process.exit(2)
}
const app = join(dirname(fileURLToPath(import.meta.url)), "..")
module.enableCompileCache?.()
await import(pathToFileURL(freshBundle(join(app, "dist"), entry) ?? join(app, "src", `${entry}.ts`)).href)
