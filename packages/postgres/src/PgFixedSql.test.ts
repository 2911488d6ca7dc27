import { makeCompiler } from "@effect/sql-pg/PgClient"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Statement from "effect/sql/Statement"
import { fixedSql, textOf } from "./PgFixedSql.ts"

// Compiling needs no connection: the acquirer is never run here.
const sql = Statement.make(Effect.die("no connection in this test"), makeCompiler(), [], undefined)

const compiled = (statement: Statement.Statement<object>) => statement.compile()

describe("fixedSql", () => {
  const columns = sql.literal("id, name")
  const table = sql("api_tokens")

  it("compiles every call to what sql compiles, with that call's parameters", () => {
    const fixed = fixedSql(sql)
    const find = (hash: string, limit: number) =>
      fixed`SELECT ${columns} FROM ${table} WHERE secret_hash = ${hash} LIMIT ${limit}`
    const plain = (hash: string, limit: number) =>
      sql`SELECT ${columns} FROM ${table} WHERE secret_hash = ${hash} LIMIT ${limit}`
    for (const [hash, limit] of [
      ["a", 1],
      ["b", 2],
      ["c", 3]
    ] as const) {
      assert.deepStrictEqual(compiled(find(hash, limit)), compiled(plain(hash, limit)))
    }
    assert.deepStrictEqual(compiled(find("d", 4)), [
      'SELECT id, name FROM "api_tokens" WHERE secret_hash = $1 LIMIT $2',
      ["d", 4]
    ])
  })

  it("runs later calls from the text compiled first: one literal segment with the parameters", () => {
    const fixed = fixedSql(sql)
    const find = (id: string) => fixed`SELECT ${columns} FROM users WHERE id = ${id}`
    assert.isAbove(find("usr_1").segments.length, 1)
    const later = find("usr_2")
    assert.strictEqual(later.segments.length, 1)
    assert.deepStrictEqual(compiled(later), ["SELECT id, name FROM users WHERE id = $1", ["usr_2"]])
  })

  it("compiles as sql does when a call brings other fragments", () => {
    const fixed = fixedSql(sql)
    const filtered = (filter: Statement.Fragment, id: string) =>
      fixed`SELECT ${columns} FROM runs WHERE ${filter} AND id = ${id}`
    const open = sql.literal("status = 'open'")
    assert.deepStrictEqual(compiled(filtered(open, "run_1")), [
      "SELECT id, name FROM runs WHERE status = 'open' AND id = $1",
      ["run_1"]
    ])
    assert.deepStrictEqual(compiled(filtered(sql.literal("TRUE"), "run_2")), [
      "SELECT id, name FROM runs WHERE TRUE AND id = $1",
      ["run_2"]
    ])
    assert.deepStrictEqual(compiled(filtered(open, "run_3")), [
      "SELECT id, name FROM runs WHERE status = 'open' AND id = $1",
      ["run_3"]
    ])
  })

  it("keeps compiling a site whose fragments carry parameters of their own", () => {
    const fixed = fixedSql(sql)
    const byStatus = (status: string, id: string) =>
      fixed`SELECT ${columns} FROM runs WHERE ${sql`status = ${status}`} AND id = ${id}`
    assert.deepStrictEqual(compiled(byStatus("open", "run_1")), [
      "SELECT id, name FROM runs WHERE status = $1 AND id = $2",
      ["open", "run_1"]
    ])
    assert.deepStrictEqual(compiled(byStatus("done", "run_2")), [
      "SELECT id, name FROM runs WHERE status = $1 AND id = $2",
      ["done", "run_2"]
    ])
  })

  it("keeps helpers built per call (insert, update) compiling per call", () => {
    const fixed = fixedSql(sql)
    const save = (row: Record<string, unknown>, id: string) =>
      fixed`UPDATE runs SET ${sql.update(row)} WHERE id = ${id}`
    const plain = (row: Record<string, unknown>, id: string) => sql`UPDATE runs SET ${sql.update(row)} WHERE id = ${id}`
    for (const [row, id] of [
      [{ status: "done" }, "run_1"],
      [{ status: "failed", version: 2 }, "run_2"],
      [{ version: 3 }, "run_3"]
    ] as const) {
      assert.deepStrictEqual(compiled(save(row, id)), compiled(plain(row, id)))
    }
    assert.strictEqual(compiled(save({ version: 4 }, "run_4"))[1].length, 2)
  })

  it("passes values of every kind through as parameters, null and dates included", () => {
    const fixed = fixedSql(sql)
    const at = new Date(0)
    const touch = (value: Date | null, ids: ReadonlyArray<string>) =>
      fixed`UPDATE api_tokens SET last_used_at = ${value} WHERE id = ANY(${ids})`
    touch(at, ["a"])
    assert.deepStrictEqual(compiled(touch(null, ["b", "c"])), [
      "UPDATE api_tokens SET last_used_at = $1 WHERE id = ANY($2)",
      [null, ["b", "c"]]
    ])
  })

  it("textOf: the text only when the parameters are exactly the given ones, in order", () => {
    const statement = sql`UPDATE runs SET ${sql.update({ status: "done", finished_at: null })} WHERE id = ${"run_1"}`
    assert.strictEqual(
      textOf(statement, ["done", null, "run_1"]),
      'UPDATE runs SET "status" = $1, "finished_at" = $2 WHERE id = $3'
    )
    assert.isNull(textOf(statement, ["done", "run_1"]))
    assert.isNull(textOf(statement, [null, "done", "run_1"]))
    assert.isNull(textOf(sql`SELECT ${sql.literal("1")} WHERE ${sql`a = ${1}`}`, []))
  })
})
