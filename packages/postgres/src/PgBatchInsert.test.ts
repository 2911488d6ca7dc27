import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { insertSkippingConflicts } from "./PgBatchInsert.ts"
import { TestDatabase } from "./testing/TestDatabase.ts"

// On the embedded PostgreSQL, or on DATABASE_URL's server when it is set.

interface Row {
  readonly id: string
  readonly owner: string
  readonly label: string | null
  readonly amount: number
  readonly ratio: number | null
  readonly at: Date
  readonly note: string | null
}

const types = {
  id: "text",
  owner: "text",
  label: "text",
  amount: "bigint",
  ratio: "double precision",
  at: "timestamptz",
  note: "text"
} as const satisfies Record<keyof Row, string>

const instant = new Date(Date.UTC(2026, 0, 15, 12, 0, 0, 123))

const aRow = (n: number, overrides: Partial<Row> = {}): Row => ({
  id: `row_${String(n).padStart(6, "0")}`,
  owner: "ws_batch",
  label: n % 3 === 0 ? null : `label ${n}`,
  amount: n * 1_000_000_007,
  ratio: n % 2 === 0 ? null : n / 7,
  at: instant,
  note: null,
  ...overrides
})

const create = (table: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql.unsafe(`CREATE TABLE ${table} (
      id text PRIMARY KEY, owner text NOT NULL, label text, amount bigint NOT NULL,
      ratio double precision, at timestamptz NOT NULL, note text)`)
  )

/** The table's rows as the batch sent them, in id order. */
const stored = (table: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql.withoutTransforms().unsafe<Row>(`SELECT id, owner, label, amount, ratio, at, note FROM ${table} ORDER BY id`)
  )

const insert = (table: string, rows: ReadonlyArray<Row>) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    insertSkippingConflicts(sql.withoutTransforms(), table, types, rows).pipe(sql.withTransaction)
  )

layer(TestDatabase.layer, { timeout: "3 minutes" })("insertSkippingConflicts", (it) => {
  it.effect("stores every column as given: shared values, varying text with nulls, numbers, instants", () =>
    Effect.gen(function* () {
      yield* create("batch_values")
      const rows = [
        ...Array.from({ length: 7 }, (_, n) => aRow(n + 1)),
        aRow(8, { label: `quotes " ' \\ back\\slash, {braces}, a tab\t, a newline\n, 😀 ünïcödé`, at: new Date(0) }),
        aRow(9, { note: "only one note", ratio: -0.1 + 0.2 })
      ]
      assert.strictEqual(yield* insert("batch_values", rows), rows.length)
      assert.deepStrictEqual(yield* stored("batch_values"), rows)
    })
  )

  it.effect("a batch of one row, and a batch whose rows agree on every column but the key", () =>
    Effect.gen(function* () {
      yield* create("batch_alike")
      const one = aRow(1)
      assert.strictEqual(yield* insert("batch_alike", [one]), 1)
      const alike = [2, 3, 4].map((n) => aRow(n, { label: "same", amount: 5, ratio: 0.5, note: "same" }))
      assert.strictEqual(yield* insert("batch_alike", alike), 3)
      assert.deepStrictEqual(yield* stored("batch_alike"), [one, ...alike])
    })
  )

  it.effect(
    "skips rows that break a unique constraint, in the table or within the batch, and counts the new ones",
    () =>
      Effect.gen(function* () {
        yield* create("batch_conflicts")
        yield* insert("batch_conflicts", [aRow(1), aRow(2)])
        const inserted = yield* insert("batch_conflicts", [
          aRow(2, { label: "again" }),
          aRow(3),
          aRow(3, { label: "twice" })
        ])
        assert.strictEqual(inserted, 1)
        assert.deepStrictEqual(
          (yield* stored("batch_conflicts")).map((row) => [row.id, row.label]),
          [
            ["row_000001", "label 1"],
            ["row_000002", "label 2"],
            ["row_000003", null]
          ]
        )
      })
  )

  it.effect("more rows than one statement takes go in several, all counted", () =>
    Effect.gen(function* () {
      yield* create("batch_many")
      const rows = Array.from({ length: 5_003 }, (_, n) => aRow(n, { at: new Date(instant.getTime() + (n % 4)) }))
      assert.strictEqual(yield* insert("batch_many", rows), rows.length)
      const back = yield* stored("batch_many")
      assert.strictEqual(back.length, rows.length)
      assert.deepStrictEqual(back[5_002], rows[5_002])
      assert.deepStrictEqual(back[4_999], rows[4_999])
    })
  )
})
