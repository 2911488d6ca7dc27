import { existsSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"

/**
 * The bundle `<dist>/<name>.mjs` that scripts/build-cli.ts made, if it exists and no source it was
 * built from changed since (a missing source: stale too); else null, and the caller runs the
 * TypeScript sources, so an edit is never hidden behind a stale bundle. The build's time is that
 * of `<dist>/inputs.json`, written by every build (esbuild leaves an output that did not change
 * untouched); its paths are relative to `dist`. Plain node:fs, no Effect: the launchers of
 * marginctl and `npm start` call it before anything else is loaded.
 */
export const freshBundle = (dist: string, name: string): string | null => {
  const bundle = join(dist, `${name}.mjs`)
  const manifest = join(dist, "inputs.json")
  if (!existsSync(bundle) || !existsSync(manifest)) return null
  const built = statSync(manifest).mtimeMs
  const parsed: unknown = JSON.parse(readFileSync(manifest, "utf8"))
  if (!Array.isArray(parsed)) return null
  const inputs: ReadonlyArray<unknown> = parsed
  for (const input of inputs) {
    const source = typeof input === "string" ? statSync(join(dist, input), { throwIfNoEntry: false }) : undefined
    if (source === undefined || source.mtimeMs > built) return null
  }
  return bundle
}
