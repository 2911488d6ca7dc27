// Catalog import at scale, on PostgreSQL: `marginctl catalog import` against a bare COPY of the same file.
// Usage: npm run bench:import [-- <lines> [<batch size>]]   (default 100,000 then 1,000,000 lines;
// the importer's default: batches of 2,000)
// Writes a synthetic catalog CSV (bench/BenchCatalog.ts), then, in a fresh database on DATABASE_URL, else
// PG_TEST_URL, else postgres://postgres@127.0.0.1:5432/test (dropped afterwards):
//   - COPY: `psql \copy` of the file into a plain staging table (text columns, no index, no check);
//   - COPY into catalog_items: the same rows written out in the table's shape (ids, minor units, array
//     literals; untimed), then `psql \copy` of that file straight into catalog_items, with its keys,
//     indexes, checks and foreign key: the bare load of this catalog into this table;
//   - schema floor: one INSERT ... SELECT from that staging table into catalog_items, server-side (what the
//     table's indexes, checks and foreign key cost a statement that inserts, as the import's upserts do);
//   - import: the importer marginctl runs (apps/cli/src/CatalogImporter.ts, the CatalogImports use case): parse
//     and validate every line, read the batch's items by sku (locked), decide each line, write the new and
//     changed items into catalog_items (its indexes, checks and foreign key), the whole file in one transaction.
// Each load into catalog_items starts from an empty table (TRUNCATE between them), so none pays for another's rows.
// Prints rows/second of each, their ratios, the CPU the database and the importer spent (when PostgreSQL runs on
// this machine), and the importer's peak RSS for each file size (flat = bounded memory).
import { execFile } from "node:child_process"
import { createWriteStream, mkdtempSync, rmSync, statSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { NodeRuntime, NodeServices } from "@effect/platform-node"
import { importCatalogFile } from "@margin/cli/CatalogImporter"
import { csvHeader, toCsvLine } from "@margin/core/catalog/CatalogImport"
import { CatalogImports, defaultImportOptions } from "@margin/core/catalog/CatalogImports"
import { WorkspaceId } from "@margin/core/kernel/Ids"
import { defaultPricingPolicy } from "@margin/core/pricing/PricingPolicy"
import { WorkspaceRepository } from "@margin/core/workspaces/WorkspaceRepository"
import * as ScratchDatabase from "@margin/runtime/testing/ScratchDatabase"
import { Effect, Layer, Logger } from "effect"
import { SqlClient } from "effect/sql"
import { catalogBatch } from "./BenchCatalog.ts"
import { timed, withPeakRss } from "./Measure.ts"
import { cpuMs } from "./ProcessCpu.ts"

const sizes = process.argv[2] === undefined ? [100_000, 1_000_000] : [Number(process.argv[2])]
const batchSize = Number(process.argv[3] ?? defaultImportOptions.batchSize)
if (![...sizes, batchSize].every((n) => Number.isSafeInteger(n) && n > 0)) {
  console.error(`usage: node bench/import.ts [lines] [batch size], got "${process.argv.slice(2).join(" ")}"`)
  process.exit(2)
}

const number = (n: number) => Math.round(n).toLocaleString("en-US")
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`

/** Writes `lines` catalog lines (plus the header) to `path`, streamed: the generator's memory stays flat too. */
const writeCatalog = (path: string, lines: number) =>
  Effect.callback<void, Error>((resume) => {
    const out = createWriteStream(path)
    const chunk = 10_000
    let from = 0
    const more = (): void => {
      while (from < lines) {
        const items = catalogBatch({ offTarget: 0.25 }, from, Math.min(chunk, lines - from))
        from += items.length
        if (!out.write(`${items.map(toCsvLine).join("\n")}\n`)) {
          out.once("drain", more)
          return
        }
      }
      out.end(() => resume(Effect.void))
    }
    out.once("error", (error) => resume(Effect.fail(error)))
    out.write(`${csvHeader}\n`)
    more()
  })

/** `psql <url> -c <command>`: the bare COPY goes through psql's \copy, the client PostgreSQL ships. */
const psql = (url: string, command: string) =>
  Effect.callback<void, Error>((resume) => {
    execFile("psql", [url, "-v", "ON_ERROR_STOP=1", "-q", "-c", command], (error, _stdout, stderr) =>
      resume(error === null ? Effect.void : Effect.fail(new Error(`psql: ${stderr || error.message}`)))
    )
  })

/** CPU time of this database's server processes (when PostgreSQL runs on this machine; else 0), in ms. */
const databaseCpuMs = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const backends = yield* sql<{ readonly pid: number }>`
    SELECT pid FROM pg_stat_activity WHERE datname = current_database()`
  return new Map(backends.map(({ pid }) => [pid, cpuMs(pid) ?? 0]))
}).pipe(Effect.orDie)

/** `effect` timed, with the CPU that this process and the database's server processes spent meanwhile. */
const measured = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const databaseBefore = yield* databaseCpuMs
    const processBefore = process.cpuUsage()
    const { value, ms } = yield* timed(effect)
    const used = process.cpuUsage(processBefore)
    const databaseAfter = yield* databaseCpuMs
    const databaseCpu = [...databaseAfter].reduce((sum, [pid, cpu]) => sum + cpu - (databaseBefore.get(pid) ?? 0), 0)
    return { value, ms, databaseCpu, processCpu: (used.user + used.system) / 1000 }
  })

const columns =
  "sku text, title text, tags text, currency text, price text, cost text, compare_at_price text, min_price text, max_price text, inventory text, units_sold_30d text"

const benchOne = (size: number, dir: string) =>
  Effect.gen(function* () {
    const { url } = yield* ScratchDatabase.ScratchDatabase
    const sql = yield* SqlClient.SqlClient
    const file = join(dir, `catalog-${size}.csv`)
    yield* writeCatalog(file, size)

    const staging = `bench_copy_${size}`
    yield* sql.unsafe(`CREATE TABLE ${staging} (${columns})`)
    const copy = yield* timed(psql(url, `\\copy ${staging} FROM '${file}' WITH (FORMAT csv, HEADER true)`))

    const workspace = (name: string) =>
      Effect.gen(function* () {
        const id = WorkspaceId.make(`ws_bench_${name}_${size}`)
        yield* WorkspaceRepository.use((workspaces) =>
          workspaces.insert({
            id,
            name: `Import bench ${name} ${size}`,
            plan: "enterprise",
            lifecycleState: "active",
            pricingPolicy: defaultPricingPolicy,
            trialEndsAt: null,
            createdAt: 0
          })
        )
        return id
      })
    // Prices in these files have two decimals or none (USD, EUR, GBP, JPY as whole yen, which the floor
    // stores x100: the cost of the statement is the same).
    const minor = (column: string) => `(round(nullif(${column}, '')::numeric * 100))::bigint`
    /** The staging rows in catalog_items' shape, for `workspaceId`, ids in the order of the file. */
    const tableRows = (workspaceId: string, idPrefix: string) => `
        SELECT '${idPrefix}' || lpad((row_number() OVER ())::text, 16, '0'), '${workspaceId}', sku, title,
          string_to_array(nullif(tags, ''), ';'), currency, ${minor("price")}, ${minor("cost")},
          ${minor("compare_at_price")}, ${minor("min_price")}, ${minor("max_price")},
          nullif(inventory, '')::integer, coalesce(nullif(units_sold_30d, '')::integer, 0)
        FROM ${staging}`
    const itemColumns =
      "id, workspace_id, sku, title, tags, currency, price, cost, compare_at_price, min_price, max_price, inventory, units_sold_30d"
    // Each load below starts from an empty catalog_items, so that none pays for the rows of another.
    const emptyCatalog = sql.unsafe("TRUNCATE catalog_items CASCADE")

    // The same rows already in the table's shape (ids, minor units, array literals), written out untimed;
    // then psql's \copy of that file straight into catalog_items: its keys, indexes and checks, no client work.
    const tableFile = join(dir, `catalog-${size}-table.csv`)
    const copyWorkspace = yield* workspace("copy")
    yield* psql(
      url,
      `\\copy (${tableRows(copyWorkspace, `itm_copy${size}_`).replace(/\s+/g, " ")}) TO '${tableFile}' WITH (FORMAT csv)`
    )
    const tableCopy = yield* timed(
      psql(url, `\\copy catalog_items (${itemColumns}) FROM '${tableFile}' WITH (FORMAT csv)`)
    )
    yield* emptyCatalog

    const floorWorkspace = yield* workspace("floor")
    const floor = yield* measured(
      sql.unsafe(`INSERT INTO catalog_items (${itemColumns}) ${tableRows(floorWorkspace, `itm_floor${size}_`)}`)
    )
    yield* emptyCatalog

    const workspaceId = yield* workspace("import")
    const imported = yield* withPeakRss(measured(importCatalogFile(workspaceId, file, "csv")))
    const { summary } = imported.value.value
    if (summary.created !== size || summary.rejectedTotal !== 0) {
      return yield* Effect.die(`expected ${size} new items, got ${JSON.stringify(summary)}`)
    }
    return {
      size,
      megabytes: statSync(file).size / 1024 / 1024,
      copyMs: copy.ms,
      tableCopyMs: tableCopy.ms,
      floorMs: floor.ms,
      floorDatabaseCpu: floor.databaseCpu,
      importMs: imported.value.ms,
      importDatabaseCpu: imported.value.databaseCpu,
      importerCpu: imported.value.processCpu,
      peakRss: imported.peakRss
    }
  })

const program = Effect.gen(function* () {
  const dir = yield* Effect.acquireRelease(
    Effect.sync(() => mkdtempSync(join(tmpdir(), "bench-import-"))),
    (path) => Effect.sync(() => rmSync(path, { recursive: true, force: true }))
  )
  console.log(
    `catalog import on PostgreSQL, batches of ${number(batchSize)}, one transaction; load average ${loadavg()[0]?.toFixed(2)}`
  )
  for (const size of sizes) {
    const result = yield* benchOne(size, dir)
    const copyRate = (result.size / result.copyMs) * 1000
    const importRate = (result.size / result.importMs) * 1000
    const floorRate = (result.size / result.floorMs) * 1000
    const tableCopyRate = (result.size / result.tableCopyMs) * 1000
    console.log(
      [
        `${number(result.size)} lines (${result.megabytes.toFixed(0)} MB):`,
        `  bare COPY (psql \\copy into a plain staging table): ${seconds(result.copyMs)}, ${number(copyRate)} rows/s`,
        `  bare COPY into catalog_items (psql \\copy of the same rows in the table's shape; keys, indexes, checks): ${seconds(result.tableCopyMs)}, ${number(tableCopyRate)} rows/s`,
        `  schema floor (INSERT ... SELECT from it into catalog_items, server-side): ${seconds(result.floorMs)}, ${number(floorRate)} rows/s; database CPU ${seconds(result.floorDatabaseCpu)}`,
        `  marginctl catalog import (parse, validate, upsert by sku into catalog_items): ${seconds(result.importMs)}, ${number(importRate)} rows/s; CPU: database ${seconds(result.importDatabaseCpu)}, importer ${seconds(result.importerCpu)}`,
        `  import / COPY into the staging table: ${(importRate / copyRate).toFixed(2)}x; import / COPY into catalog_items: ${(importRate / tableCopyRate).toFixed(2)}x; import / schema floor: ${(importRate / floorRate).toFixed(2)}x`,
        `  importer peak RSS ${mb(result.peakRss)}; load average ${loadavg()[0]?.toFixed(2)}`
      ].join("\n")
    )
  }
}).pipe(Effect.scoped)

program.pipe(
  Effect.provide(CatalogImports.layerWith({ batchSize }).pipe(Layer.provideMerge(ScratchDatabase.layer))),
  Effect.provide(NodeServices.layer),
  Effect.provide(Logger.layer([])),
  NodeRuntime.runMain
)
