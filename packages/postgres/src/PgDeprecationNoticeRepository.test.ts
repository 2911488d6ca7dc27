import { assert, describe, layer } from "@effect/vitest"
import { deprecationNoticeRepositoryContract } from "@margin/core/testing/DeprecationNoticeRepositoryContract"
import { noticeRecordedAt, recordListRunsNoticeTwice, seedNoticeAudience } from "@margin/core/testing/NoticeAudience"
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

/** What only the table shows: the contract (below) holds the rest. */
describe(`PgDeprecationNoticeRepository (${PgTestAdapters.backend})`, () => {
  layer(testLayer, { timeout: "3 minutes" })((it) => {
    it.effect("a recorded notice keeps the address and transport it was sent with", () =>
      Effect.gen(function* () {
        const { shopA, admin } = yield* seedNoticeAudience
        const at = noticeRecordedAt
        yield* recordListRunsNoticeTwice(shopA.id, admin)
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
  })
})

deprecationNoticeRepositoryContract(PgTestAdapters.backend, testLayer)
