/**
 * What the two baselines of `npm run bench:http` (bench/http-bare.ts, bench/http-effect.ts) share:
 * the columns they select, the hand mapping of a recommendation row to the API's JSON, the list page
 * and the accept transaction.
 */
import { randomBytes } from "node:crypto"
import { CurrencyCode, formatMajorUnits } from "@margin/core/kernel/Money"
import { encodeCursor } from "@margin/core/kernel/Page"
import { ratioJson } from "@margin/edge/wire"
import { Effect } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"

export type Row = Record<string, unknown>

/** DATABASE_URL, PORT, HOST, RATE_LIMIT_PER_MINUTE, as the REST server reads them. */
export const settings = (defaultPort: number) => ({
  url: process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
  port: Number(process.env.PORT ?? defaultPort),
  host: process.env.HOST ?? "127.0.0.1",
  limitPerMinute: Number(process.env.RATE_LIMIT_PER_MINUTE ?? 60)
})

export const recommendationColumnList =
  "id, workspace_id, run_id, item_id, sku, currency, current_price, recommended_price, current_margin, " +
  "projected_margin, rule, explanation, elasticity, elasticity_low, elasticity_high, elasticity_source, " +
  "elasticity_sample_size, " +
  "expected_monthly_impact, status, accepted_at, accepted_by, approved_at, decided_by, decided_at, " +
  "reject_reason, dismissed_at, superseded_by, superseded_reason, version, created_at, updated_at"

export const tokenColumnList =
  "id, workspace_id, issued_by, name, scopes, created_at, expires_at, revoked_at, last_used_at"

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : null)
const money = (minor: unknown, currency: CurrencyCode) => ({
  amount_minor: Number(minor),
  currency,
  amount_decimal: formatMajorUnits(Number(minor), currency)
})
const ratio = (value: unknown) => ratioJson(value === null ? null : Number(value))

export const recommendationJson = (row: Row) => {
  const currency = CurrencyCode.make(String(row.currency))
  return {
    id: row.id,
    run_id: row.run_id,
    item_id: row.item_id,
    sku: row.sku,
    status: row.status,
    currency,
    current_price: money(row.current_price, currency),
    recommended_price: money(row.recommended_price, currency),
    current_margin: ratio(row.current_margin),
    projected_margin: ratio(row.projected_margin),
    rule: row.rule,
    explanation: row.explanation,
    elasticity: Number(row.elasticity),
    elasticity_interval: [Number(row.elasticity_low), Number(row.elasticity_high)],
    elasticity_source: row.elasticity_source,
    elasticity_sample_size: Number(row.elasticity_sample_size),
    expected_monthly_impact: money(row.expected_monthly_impact, currency),
    accepted_at: iso(row.accepted_at),
    accepted_by: row.accepted_by,
    approved_at: iso(row.approved_at),
    decided_by: row.decided_by,
    decided_at: iso(row.decided_at),
    reject_reason: row.reject_reason,
    dismissed_at: iso(row.dismissed_at),
    superseded_by: row.superseded_by,
    superseded_reason: row.superseded_reason,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at)
  }
}

/** The list query of a workspace's first page, answered as the API's `{ data, next_cursor }` by hand. */
export const listPage = (sql: SqlClient, workspaceId: string, limit: number) =>
  Effect.map(
    sql<Row>`
      SELECT ${sql.literal(recommendationColumnList)} FROM recommendations
      WHERE workspace_id = ${workspaceId} AND TRUE AND TRUE AND TRUE
      ORDER BY created_at DESC, id DESC
      LIMIT ${limit + 1}`,
    (rows) => {
      const items = rows.slice(0, limit)
      const last = items.at(-1)
      const nextCursor =
        rows.length > limit && last !== undefined
          ? encodeCursor({
              createdAt: last.created_at instanceof Date ? last.created_at.getTime() : 0,
              id: String(last.id)
            })
          : null
      return { data: items.map(recommendationJson), next_cursor: nextCursor }
    }
  )

/** The accept's transaction body, one generator function for every call (as the REST server's are). */
const acceptSteps = Effect.fnUntraced(function* (
  sql: SqlClient,
  caller: { readonly workspaceId: string; readonly tokenId: string },
  id: string
) {
  const actor = `token:${caller.tokenId}`
  const columns = sql.literal(recommendationColumnList)
  const [current] = yield* sql<Row>`
    SELECT ${columns} FROM recommendations
    WHERE workspace_id = ${caller.workspaceId} AND id = ${id} FOR UPDATE`
  if (current === undefined) return { status: 404, body: { error: { code: "not_found" } } }
  if (current.accepted_at !== null) return { status: 200, body: { ok: true, idempotent: true } }
  const now = new Date()
  const [saved] = yield* sql<Row>`
    UPDATE recommendations SET ${sql.update({
      status: "pending_approval",
      accepted_at: now,
      accepted_by: actor,
      updated_at: now,
      version: Number(current.version) + 1
    })}
    WHERE workspace_id = ${caller.workspaceId} AND id = ${id} AND version = ${Number(current.version)}
    RETURNING ${columns}`
  if (saved === undefined) return { status: 409, body: { error: { code: "conflict" } } }
  yield* sql`INSERT INTO audit_events ${sql.insert({
    id: `evt_${randomBytes(12).toString("hex")}`,
    workspace_id: caller.workspaceId,
    actor,
    action: "recommendation.accept",
    resource_type: "recommendation",
    resource_id: id,
    before_status: String(current.status),
    after_status: "pending_approval",
    at: now
  })}`
  return { status: 200, body: { ok: true, idempotent: false, recommendation: recommendationJson(saved) } }
})

/**
 * The accept of a `new` recommendation: SELECT … FOR UPDATE, UPDATE … AND version = expected, the
 * audit insert, in one transaction; answers the status and body to send.
 */
export const acceptInTransaction = (
  sql: SqlClient,
  caller: { readonly workspaceId: string; readonly tokenId: string },
  id: string
) => sql.withTransaction(acceptSteps(sql, caller, id))
