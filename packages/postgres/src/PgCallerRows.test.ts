import { assert, describe, it } from "@effect/vitest"
import { roles } from "@margin/core/access/Role"
import { scopes } from "@margin/core/access/Scope"
import { Effect, type Schema } from "effect"
import * as fc from "fast-check"
import { fastMembershipRow, fastTokenRow, fastUserRow, MembershipRow, TokenRow, UserRow } from "./PgCallerRows.ts"
import * as Memberships from "./PgMembershipRepository.ts"
import type { FastRow } from "./PgRows.ts"
import { firstOf, rowsOf } from "./PgRows.ts"
import * as Tokens from "./PgTokenRepository.ts"
import * as Users from "./PgUserRepository.ts"
import { id, instant, nullable, outcome, shown, text } from "./testing/RowArbitraries.ts"

/** Values of every kind that some column may or may not accept. */
const odd = fc.constantFrom<unknown>(
  undefined,
  null,
  "12",
  "owner",
  "runs:read",
  ["runs:read", "nope"],
  [],
  12n,
  Number.NaN,
  1.5,
  true,
  1_700_000_000_000,
  new Date(Number.NaN),
  new Date(8.64e15),
  "2026-01-01T00:00:00Z",
  {}
)

/** Rows as the driver hands them over, one arbitrary per table. */
const wellFormed = {
  token: fc.record({
    id: id("tok"),
    workspace_id: id("ws"),
    issued_by: id("usr"),
    name: text,
    scopes: fc.subarray([...scopes]),
    created_at: instant,
    expires_at: nullable(instant),
    revoked_at: nullable(instant),
    last_used_at: nullable(instant)
  }),
  membership: fc.record({ workspace_id: id("ws"), user_id: id("usr"), role: fc.constantFrom(...roles) }),
  user: fc.record({
    id: id("usr"),
    email: text,
    email_confirmed: fc.boolean(),
    deleted_at: nullable(instant),
    created_at: instant
  })
}

/** A well-formed row, or one with a column's value replaced by an odd one (which it may still accept). */
const rowOf = (base: fc.Arbitrary<Record<string, unknown>>, columns: ReadonlyArray<string>) =>
  fc.oneof(
    { weight: 1, arbitrary: base },
    {
      weight: 3,
      arbitrary: fc
        .tuple(base, fc.constantFrom(...columns), odd)
        .map(([row, column, value]): Record<string, unknown> => ({ ...row, [column]: value }))
    },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(null, "row", []) }
  )

const agreesWithSchema = <T, E, A>(
  schema: Schema.Codec<T, E> & { readonly fields: Readonly<Record<string, unknown>> },
  toDomain: (row: T) => A,
  fast: FastRow<T>,
  base: fc.Arbitrary<Record<string, unknown>>
) =>
  Effect.gen(function* () {
    const bySchema = rowsOf(schema, toDomain)
    const byFast = rowsOf(schema, toDomain, fast)
    const firstBySchema = firstOf(schema, toDomain)
    const firstByFast = firstOf(schema, toDomain, fast)
    const rows = fc.array(rowOf(base, Object.keys(schema.fields)), { maxLength: 3 })
    let decoded = 0
    for (const sample of fc.sample(rows, { numRuns: 3_000, seed: 20261122 })) {
      const expected = yield* outcome(bySchema(sample))
      if ("ok" in expected) decoded++
      assert.deepStrictEqual(yield* outcome(byFast(sample)), expected, shown(sample))
      assert.deepStrictEqual(yield* outcome(firstByFast(sample)), yield* outcome(firstBySchema(sample)), shown(sample))
    }
    // The samples reach both sides: rows the schema accepts and rows it refuses.
    assert.isAbove(decoded, 300)
    assert.isBelow(decoded, 2_700)
    // And a well-formed row is decoded by the fast path itself, as the schema decodes it.
    for (const row of fc.sample(base, { numRuns: 200, seed: 7 })) {
      const quick = fast(row)
      if (quick === undefined) return assert.fail(`the fast path refused a well-formed row: ${shown(row)}`)
      assert.deepStrictEqual(yield* outcome(bySchema([row])), { ok: [toDomain(quick)] }, shown(row))
    }
  })

describe("PgCallerRows: the fast decoders answer what their schemas answer", () => {
  it.effect("api_tokens", () => agreesWithSchema(TokenRow, Tokens.toDomain, fastTokenRow, wellFormed.token))
  it.effect("memberships", () =>
    agreesWithSchema(MembershipRow, Memberships.toDomain, fastMembershipRow, wellFormed.membership)
  )
  it.effect("users", () => agreesWithSchema(UserRow, Users.toDomain, fastUserRow, wellFormed.user))
})
