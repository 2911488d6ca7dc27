import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { checkBoundaries, exportTarget, type Violation } from "./boundaries.ts"

const roots: Array<string> = []
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true })
})

const manifest = (name: string, exports: unknown, dependencies: ReadonlyArray<string> = []) =>
  JSON.stringify({
    name: `@margin/${name}`,
    type: "module",
    exports,
    dependencies: Object.fromEntries(dependencies.map((dependency) => [`@margin/${dependency}`, "*"]))
  })

/**
 * A small house: core; an adapter `store` and a package `door` on core; an app `server` on both,
 * and an app `tool` on core. Each file of `changes` replaces or adds one.
 */
const house = (changes: Readonly<Record<string, string>> = {}): string => {
  const root = mkdtempSync(join(tmpdir(), "margin-boundaries-"))
  roots.push(root)
  const files: Record<string, string> = {
    "package.json": JSON.stringify({
      name: "house",
      workspaces: ["packages/*", "apps/*"],
      packageOrder: [["core"], ["store", "door"], ["server", "tool"]]
    }),
    "packages/core/package.json": manifest("core", { "./*": "./src/*.ts" }),
    "packages/core/src/Money.ts": 'import { Schema } from "effect"\nexport const Money = Schema.Number\n',
    "packages/core/src/Price.ts": 'import { Money } from "./Money.ts"\nexport const Price = Money\n',
    "packages/store/package.json": manifest("store", { ".": "./src/index.ts" }, ["core"]),
    "packages/store/src/index.ts": 'export * from "./Store.ts"\n',
    "packages/store/src/Store.ts": 'import { Price } from "@margin/core/Price"\nexport const store = Price\n',
    "packages/store/src/internal/Rows.ts": "export const rows = 1\n",
    "packages/door/package.json": manifest("door", { ".": "./src/index.ts" }, ["core"]),
    "packages/door/src/index.ts": 'import { Money } from "@margin/core/Money"\nexport const door = Money\n',
    "apps/server/package.json": manifest("server", {}, ["core", "store", "door"]),
    "apps/server/src/main.ts":
      'import { door } from "@margin/door"\nimport { store } from "@margin/store"\nexport { door, store }\n',
    "apps/tool/package.json": manifest("tool", {}, ["core"]),
    "apps/tool/src/main.ts": 'import { Price } from "@margin/core/Price"\nexport { Price }\n',
    ...changes
  }
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

/** The rules the house breaks, as `rule file`. */
const broken = (violations: ReadonlyArray<Violation>) => violations.map((v) => `${v.rule} ${v.file}`)

describe("scripts/boundaries.ts", () => {
  it("passes a house that keeps the order", () => {
    assert.deepStrictEqual(checkBoundaries(house()), [])
  })

  it("fails an import of a workspace package the importer does not declare", () => {
    const root = house({ "apps/tool/src/main.ts": 'import { door } from "@margin/door"\nexport { door }\n' })
    assert.deepStrictEqual(broken(checkBoundaries(root)), ["undeclared apps/tool/src/main.ts"])
  })

  it("fails an import against the order, and a declared dependency that points up", () => {
    const root = house({
      "packages/store/package.json": manifest("store", { ".": "./src/index.ts" }, ["core", "door"]),
      "packages/store/src/Store.ts": 'import { door } from "@margin/door"\nexport const store = door\n'
    })
    assert.deepStrictEqual(broken(checkBoundaries(root)), [
      "order packages/store/package.json",
      "order packages/store/src/Store.ts"
    ])
  })

  it("fails an import of a subpath the package does not export, and a path into another package", () => {
    const root = house({
      "apps/server/src/main.ts": 'import { rows } from "@margin/store/internal/Rows"\nexport { rows }\n',
      "apps/tool/src/main.ts": 'import { door } from "../../../packages/door/src/index.ts"\nexport { door }\n'
    })
    assert.deepStrictEqual(broken(checkBoundaries(root)), [
      "not-exported apps/server/src/main.ts",
      "not-exported apps/tool/src/main.ts"
    ])
  })

  it("fails a file loop, naming the files around it", () => {
    const root = house({
      "packages/core/src/Money.ts": 'import { Price } from "./Price.ts"\nexport const Money = 1\nexport { Price }\n'
    })
    const violations = checkBoundaries(root)
    assert.deepStrictEqual(broken(violations), ["cycle packages/core/src/Money.ts"])
    assert.include(
      violations[0]?.message ?? "",
      "packages/core/src/Money.ts -> packages/core/src/Price.ts -> packages/core/src/Money.ts"
    )
  })

  it("fails core importing anything but effect", () => {
    const root = house({
      "packages/core/src/Clock.ts": 'import { readFileSync } from "node:fs"\nexport const read = readFileSync\n'
    })
    assert.deepStrictEqual(broken(checkBoundaries(root)), ["core packages/core/src/Clock.ts"])
  })

  it("lets core's tests and kits use the test tools, and keeps the domain from reaching them", () => {
    const root = house({
      "packages/core/src/pricing/Price.test.ts":
        'import { it } from "@effect/vitest"\nimport { Fixture } from "../testing/Fixture.ts"\nexport { it, Fixture }\n',
      "packages/core/src/testing/Fixture.ts": 'import fc from "fast-check"\nexport const Fixture = fc\n',
      "packages/core/src/pricing/Quote.ts":
        'import { Fixture } from "../testing/Fixture.ts"\nexport const Quote = Fixture\n'
    })
    assert.deepStrictEqual(broken(checkBoundaries(root)), ["core packages/core/src/pricing/Quote.ts"])
  })

  it("fails an app importing an app", () => {
    const root = house({
      "apps/tool/package.json": manifest("tool", { "./main": "./src/main.ts" }, ["core"]),
      "apps/server/package.json": manifest("server", {}, ["core", "store", "door", "tool"]),
      "apps/server/src/main.ts": 'import { Price } from "@margin/tool/main"\nexport { Price }\n'
    })
    assert.deepStrictEqual(broken(checkBoundaries(root)), [
      "order apps/server/package.json",
      "app-imports-app apps/server/src/main.ts"
    ])
  })

  it("reads exports maps as Node does: exact keys, the longest pattern, null excludes", () => {
    const exports = {
      ".": "./src/index.ts",
      "./testing/*": "./testing/*.ts",
      "./internal/*": null,
      "./*": "./src/*.ts"
    }
    assert.strictEqual(exportTarget(exports, "."), "./src/index.ts")
    assert.strictEqual(exportTarget(exports, "./testing/Seed"), "./testing/Seed.ts")
    assert.strictEqual(exportTarget(exports, "./ports/Clock"), "./src/ports/Clock.ts")
    assert.isNull(exportTarget(exports, "./internal/Rows"))
    assert.isUndefined(exportTarget({ ".": "./src/index.ts" }, "./Store"))
  })
})
