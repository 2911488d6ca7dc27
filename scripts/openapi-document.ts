// Writes the OpenAPI document the REST server serves at /api/v1/openapi.json, generated from the
// HttpApi definition (`@margin/rest/api`) without starting a server: `npm run lint:openapi` lints
// it with Redocly and Spectral. Usage: node scripts/openapi-document.ts [out file]
// (default .ci/openapi.json).
import { mkdirSync, writeFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { Api } from "@margin/rest/api"
import { OpenApi } from "effect/http-api"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const out = resolve(root, process.argv[2] ?? ".ci/openapi.json")
mkdirSync(dirname(out), { recursive: true })
writeFileSync(out, `${JSON.stringify(OpenApi.fromApi(Api), null, 2)}\n`)
console.log(`wrote ${out}`)
