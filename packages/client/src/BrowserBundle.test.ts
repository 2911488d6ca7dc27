import { assert, describe, it } from "@effect/vitest"
import { build } from "esbuild"

/**
 * The client loads the API definition and nothing of the server: it bundles for a browser (no
 * node: module), without the credential checks (jose, Authenticate) or the middlewares' server
 * layers. Guards the split of @margin/rest/api (docs/client.md, "How it is built").
 */
describe("@margin/client in a browser bundle", () => {
  it("bundles without node: modules and without server code", async () => {
    const result = await build({
      stdin: { contents: 'export * from "@margin/client"', resolveDir: import.meta.dirname, loader: "ts" },
      bundle: true,
      platform: "browser",
      format: "esm",
      write: false,
      metafile: true,
      logLevel: "silent"
    })
    const inputs = Object.keys(result.metafile.inputs)
    const server = inputs.filter((input) =>
      /node_modules\/jose\/|edge\/src\/(auth\/(Authenticate|SessionJwt|TokenSecret)|telemetry|serving)|rest\/src\/.*Layer\.ts|rest\/src\/(HttpApp|NodeServer)\.ts/.test(
        input
      )
    )
    assert.deepStrictEqual(server, [])
    assert.isTrue(inputs.some((input) => input.endsWith("packages/rest/src/Api.ts")))
  })
})
