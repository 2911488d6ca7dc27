import { assert, describe, layer } from "@effect/vitest"
import type { NoticeRecipient } from "@margin/core/DeprecationNotice"
import { DeprecationNoticeRepository } from "@margin/core/ports/DeprecationNoticeRepository"
import { seedNoticeAudience } from "@margin/core/testing/NoticeAudience"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import * as PgDeprecationNoticeRepository from "./PgDeprecationNoticeRepository.ts"
import * as PgTestAdapters from "./testing/PgTestAdapters.ts"

const testLayer = PgDeprecationNoticeRepository.layer.pipe(Layer.provideMerge(PgTestAdapters.layer))

const NoticeRow = Schema.Struct({
  workspace_id: Schema.String,
  user_id: Schema.String,
  email: Schema.String,
  transport: Schema.String,
  notified_at: Schema.Date
})

describe(`PgDeprecationNoticeRepository (${PgTestAdapters.backend})`, () => {
  layer(testLayer, { timeout: "3 minutes" })((it) => {
    it.effect(
      "owners and admins of every workspace (unconfirmed addresses too), deleted users left out, each notice recorded once",
      () =>
        Effect.gen(function* () {
          const notices = yield* DeprecationNoticeRepository
          const { shopA, shopB, owner, admin, unconfirmedAdmin, adminB } = yield* seedNoticeAudience
          const ours = (recipients: ReadonlyArray<NoticeRecipient>) =>
            recipients.filter((r) => r.workspaceId === shopA.id || r.workspaceId === shopB.id)
          const before = ours(yield* notices.recipients("listRuns"))
          const expected = [
            { workspace: shopA, user: owner, role: "owner" as const },
            { workspace: shopA, user: admin, role: "admin" as const },
            { workspace: shopA, user: unconfirmedAdmin, role: "admin" as const },
            { workspace: shopB, user: owner, role: "owner" as const },
            { workspace: shopB, user: adminB, role: "admin" as const }
          ]
            .sort((a, b) =>
              a.workspace.id === b.workspace.id
                ? a.user.id < b.user.id
                  ? -1
                  : 1
                : a.workspace.id < b.workspace.id
                  ? -1
                  : 1
            )
            .map(({ workspace, user, role }) => ({
              workspaceId: workspace.id,
              workspaceName: workspace.name,
              userId: user.id,
              email: user.email,
              emailConfirmed: user.emailConfirmed,
              role,
              notifiedAt: null
            }))
          assert.deepStrictEqual(before, expected)

          const at = Date.parse("2026-01-15T09:30:00.123Z")
          const notice = {
            operation: "listRuns",
            workspaceId: shopA.id,
            userId: admin.id,
            email: admin.email,
            notifiedAt: at,
            transport: "smtp"
          } as const
          yield* notices.record(notice)
          // A second record of the same notice (a retried run) keeps the first.
          yield* notices.record({ ...notice, notifiedAt: at + 60_000, transport: "eml" })

          const after = ours(yield* notices.recipients("listRuns"))
          assert.deepStrictEqual(
            after.map((r) => [r.workspaceId, r.userId, r.notifiedAt]),
            expected.map((r) => [
              r.workspaceId,
              r.userId,
              r.workspaceId === shopA.id && r.userId === admin.id ? at : null
            ])
          )
          // Notices are per operation.
          assert.isTrue(ours(yield* notices.recipients("getRun")).every((r) => r.notifiedAt === null))

          const sql = (yield* SqlClient.SqlClient).withoutTransforms()
          const rows = yield* Schema.decodeUnknownEffect(Schema.Array(NoticeRow))(
            yield* sql`SELECT workspace_id, user_id, email, transport, notified_at FROM deprecation_notices
                     WHERE operation = 'listRuns' AND workspace_id = ${shopA.id}`.pipe(Effect.orDie)
          )
          assert.deepStrictEqual(
            rows.map((row) => ({ ...row, notified_at: row.notified_at.getTime() })),
            [{ workspace_id: shopA.id, user_id: admin.id, email: admin.email, transport: "smtp", notified_at: at }]
          )
        })
    )

    it.effect(
      "one claim holds at a time (of many at once, one wins); a sent notice or a live claim refuses it; release and lapse free it",
      () =>
        Effect.gen(function* () {
          const notices = yield* DeprecationNoticeRepository
          const { shopA, owner, admin } = yield* seedNoticeAudience
          const at = Date.parse("2026-02-01T10:00:00.000Z")
          const claimOf = (user: typeof owner, when: number) =>
            ({
              operation: "getRun",
              workspaceId: shopA.id,
              userId: user.id,
              email: user.email,
              transport: "smtp",
              at: when,
              until: when + 600_000
            }) as const

          // Eight runs at once (PostgreSQL: on several connections): exactly one holds the claim.
          const wins = yield* Effect.all(
            Array.from({ length: 8 }, () => notices.claim(claimOf(owner, at))),
            {
              concurrency: "unbounded"
            }
          )
          assert.deepStrictEqual(wins.filter((outcome) => outcome === "claimed").length, 1)
          assert.isTrue(wins.every((outcome) => outcome === "claimed" || outcome === "held"))
          // Claimed, not sent: still a recipient to tell.
          const owners = (yield* notices.recipients("getRun")).filter(
            (r) => r.workspaceId === shopA.id && r.userId === owner.id
          )
          assert.deepStrictEqual(
            owners.map((r) => r.notifiedAt),
            [null]
          )
          // A claim that lapsed is taken over; then recording it makes it final.
          assert.strictEqual(yield* notices.claim(claimOf(owner, at + 599_999)), "held")
          assert.strictEqual(yield* notices.claim(claimOf(owner, at + 600_000)), "claimed")
          yield* notices.record({
            operation: "getRun",
            workspaceId: shopA.id,
            userId: owner.id,
            email: owner.email,
            notifiedAt: at + 600_001,
            transport: "smtp"
          })
          assert.strictEqual(yield* notices.claim(claimOf(owner, at + 10 * 600_000)), "sent")
          // Releasing a sent notice leaves it; releasing an unsent claim frees it at once.
          yield* notices.release("getRun", shopA.id, owner.id)
          assert.strictEqual(yield* notices.claim(claimOf(admin, at)), "claimed")
          yield* notices.release("getRun", shopA.id, admin.id)
          assert.strictEqual(yield* notices.claim(claimOf(admin, at)), "claimed")

          const told = (yield* notices.recipients("getRun")).filter((r) => r.workspaceId === shopA.id)
          assert.deepStrictEqual(
            told.filter((r) => r.notifiedAt !== null).map((r) => [r.userId, r.notifiedAt]),
            [[owner.id, at + 600_001]]
          )
        })
    )
  })
})
