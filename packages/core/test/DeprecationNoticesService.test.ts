import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Ref } from "effect"
import { TestClock } from "effect/testing"
import type { Deprecation } from "../src/Deprecation.ts"
import { composeNotice, type DeprecationNoticeRecord, type NoticeRecipient } from "../src/DeprecationNotice.ts"
import { claimLeaseMs, DeprecationNotices } from "../src/DeprecationNoticesService.ts"
import { UserId, WorkspaceId } from "../src/Ids.ts"
import { type ClaimOutcome, DeprecationNoticeRepository } from "../src/ports/DeprecationNoticeRepository.ts"
import { Mailer, type MailMessage, MailNotSent } from "../src/ports/Mailer.ts"

const deprecation: Deprecation = {
  operation: "listRuns",
  notice: "2026-01-15",
  sunset: "2026-07-15",
  replacement: "GET /api/v1/runs/{run_id}",
  link: "https://docs.example/deprecations/list-runs"
}

const recipient = (workspace: string, user: string, role: "owner" | "admin"): NoticeRecipient => ({
  workspaceId: WorkspaceId.make(workspace),
  workspaceName: `Shop ${workspace}`,
  userId: UserId.make(user),
  email: `${user}@example.com`,
  emailConfirmed: true,
  role,
  notifiedAt: null
})

const keyOf = (operation: string, workspaceId: string, userId: string) => `${operation} ${workspaceId} ${userId}`

/**
 * The repository and the mailer as Refs: who is an owner or admin, what was recorded, the live
 * claims (until when), what was sent. A send yields first, so that concurrent calls interleave.
 */
const fakes = (members: ReadonlyArray<NoticeRecipient>, refused: ReadonlySet<string>) =>
  Effect.gen(function* () {
    const people = yield* Ref.make(members)
    const records = yield* Ref.make<ReadonlyArray<DeprecationNoticeRecord>>([])
    const sent = yield* Ref.make<ReadonlyArray<MailMessage>>([])
    const refuse = yield* Ref.make(refused)
    const claims = yield* Ref.make<ReadonlyMap<string, number>>(new Map())
    // A list read before another call recorded its notices: nobody is told yet in it.
    const staleList = yield* Ref.make(false)
    const repository = DeprecationNoticeRepository.of({
      recipients: (operation) =>
        Effect.gen(function* () {
          const recorded = (yield* Ref.get(staleList))
            ? []
            : (yield* Ref.get(records)).filter((record) => record.operation === operation)
          return (yield* Ref.get(people)).map((person) => ({
            ...person,
            notifiedAt:
              recorded.find((r) => r.workspaceId === person.workspaceId && r.userId === person.userId)?.notifiedAt ??
              null
          }))
        }),
      claim: (claim) =>
        Effect.gen(function* () {
          const key = keyOf(claim.operation, claim.workspaceId, claim.userId)
          const sent = (yield* Ref.get(records)).some((r) => keyOf(r.operation, r.workspaceId, r.userId) === key)
          return yield* Ref.modify(claims, (live): readonly [ClaimOutcome, ReadonlyMap<string, number>] => {
            const held = live.get(key)
            if (sent) return ["sent", live]
            return held !== undefined && held > claim.at
              ? ["held", live]
              : ["claimed", new Map([...live, [key, claim.until]])]
          })
        }),
      record: (notice) => Ref.update(records, (all) => [...all, notice]),
      release: (operation, workspaceId, userId) =>
        Ref.update(claims, (live) => {
          const rest = new Map(live)
          rest.delete(keyOf(operation, workspaceId, userId))
          return rest
        })
    })
    const mailer = Mailer.of({
      transport: "smtp",
      send: (message) =>
        Effect.flatMap(Effect.andThen(Effect.yieldNow, Ref.get(refuse)), (refusing) =>
          refusing.has(message.to)
            ? Effect.fail(new MailNotSent({ to: message.to, reason: "550 mailbox unavailable" }))
            : Ref.update(sent, (all) => [...all, message])
        )
    })
    const layer = DeprecationNotices.layer.pipe(
      Layer.provide([Layer.succeed(DeprecationNoticeRepository, repository), Layer.succeed(Mailer, mailer)])
    )
    return { people, records, sent, refuse, claims, staleList, layer }
  })

const notify = (layer: Layer.Layer<DeprecationNotices>) =>
  DeprecationNotices.use((notices) => notices.notify(deprecation)).pipe(Effect.provide(layer))

describe("DeprecationNotices.notify", () => {
  it.effect("e-mails each owner and admin once, records when, and a second call sends nothing", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.parse("2026-01-15T09:00:00Z"))
      const world = yield* fakes(
        [recipient("ws_a", "usr_1", "owner"), recipient("ws_a", "usr_2", "admin"), recipient("ws_b", "usr_1", "owner")],
        new Set()
      )
      const first = yield* notify(world.layer)
      assert.strictEqual(first.transport, "smtp")
      assert.deepStrictEqual(
        first.notified.map(({ record }) => [record.workspaceId, record.userId, record.email]),
        [
          ["ws_a", "usr_1", "usr_1@example.com"],
          ["ws_a", "usr_2", "usr_2@example.com"],
          ["ws_b", "usr_1", "usr_1@example.com"]
        ]
      )
      assert.strictEqual(first.alreadyNotified, 0)
      assert.deepStrictEqual(first.failed, [])
      const records = yield* Ref.get(world.records)
      assert.isTrue(records.every((r) => r.notifiedAt === Date.parse("2026-01-15T09:00:00Z") && r.transport === "smtp"))
      // One message per (workspace, user): usr_1 gets one for each of their workspaces.
      assert.deepStrictEqual(
        (yield* Ref.get(world.sent)).map((message) => message.key),
        ["deprecation.listRuns.ws_a.usr_1", "deprecation.listRuns.ws_a.usr_2", "deprecation.listRuns.ws_b.usr_1"]
      )

      const again = yield* notify(world.layer)
      assert.deepStrictEqual(again.notified, [])
      assert.strictEqual(again.alreadyNotified, 3)
      assert.strictEqual((yield* Ref.get(world.sent)).length, 3)

      // A new admin is told on the next call; nobody else is told twice.
      yield* Ref.update(world.people, (all) => [...all, recipient("ws_b", "usr_3", "admin")])
      const later = yield* notify(world.layer)
      assert.deepStrictEqual(
        later.notified.map(({ record }) => record.userId),
        ["usr_3"]
      )
      assert.strictEqual(later.alreadyNotified, 3)
    })
  )

  it.effect("a refused recipient is reported, not recorded, and tried again next time; the others are sent", () =>
    Effect.gen(function* () {
      const world = yield* fakes(
        [recipient("ws_a", "usr_1", "owner"), recipient("ws_a", "usr_2", "admin")],
        new Set(["usr_1@example.com"])
      )
      const first = yield* notify(world.layer)
      assert.deepStrictEqual(
        first.failed.map((f) => [f.recipient.userId, f.reason]),
        [["usr_1", "550 mailbox unavailable"]]
      )
      assert.deepStrictEqual(
        first.notified.map(({ record }) => record.userId),
        ["usr_2"]
      )
      assert.deepStrictEqual(
        (yield* Ref.get(world.records)).map((r) => r.userId),
        ["usr_2"]
      )

      yield* Ref.set(world.refuse, new Set())
      const retry = yield* notify(world.layer)
      assert.deepStrictEqual(
        retry.notified.map(({ record }) => record.userId),
        ["usr_1"]
      )
      assert.strictEqual(retry.alreadyNotified, 1)
      assert.deepStrictEqual(retry.failed, [])
    })
  )

  it.effect("two calls at once send each notice once: the second finds the first's claims", () =>
    Effect.gen(function* () {
      const world = yield* fakes(
        [recipient("ws_a", "usr_1", "owner"), recipient("ws_a", "usr_2", "admin"), recipient("ws_b", "usr_3", "owner")],
        new Set()
      )
      const [one, two] = yield* Effect.all([notify(world.layer), notify(world.layer)], { concurrency: 2 })
      assert.deepStrictEqual((yield* Ref.get(world.sent)).map((message) => message.key).sort(), [
        "deprecation.listRuns.ws_a.usr_1",
        "deprecation.listRuns.ws_a.usr_2",
        "deprecation.listRuns.ws_b.usr_3"
      ])
      // Each notice was sent by one call and is in progress for the other (or already told).
      assert.strictEqual(one.notified.length + two.notified.length, 3)
      assert.strictEqual(
        one.notified.length + one.inProgress.length + one.alreadyNotified,
        3,
        "every recipient is accounted for by the first call"
      )
      assert.strictEqual(two.notified.length + two.inProgress.length + two.alreadyNotified, 3)
    })
  )

  it.effect(
    "a recipient another call told after this one read the list counts as told before, not as in progress",
    () =>
      Effect.gen(function* () {
        const world = yield* fakes(
          [recipient("ws_a", "usr_1", "owner"), recipient("ws_a", "usr_2", "admin")],
          new Set()
        )
        yield* Ref.set(world.records, [
          {
            operation: "listRuns",
            workspaceId: WorkspaceId.make("ws_a"),
            userId: UserId.make("usr_1"),
            email: "usr_1@example.com",
            notifiedAt: 0,
            transport: "smtp"
          }
        ])
        yield* Ref.set(world.staleList, true)
        const report = yield* notify(world.layer)
        assert.deepStrictEqual(
          report.notified.map(({ record }) => record.userId),
          ["usr_2"]
        )
        assert.strictEqual(report.alreadyNotified, 1)
        assert.deepStrictEqual(report.inProgress, [])
        assert.deepStrictEqual(
          (yield* Ref.get(world.sent)).map((message) => message.to),
          ["usr_2@example.com"]
        )
      })
  )

  it.effect("a claim left by a run that stopped holds the notice back until it lapses, then it is sent", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.parse("2026-01-15T09:00:00Z"))
      const start = Date.parse("2026-01-15T09:00:00Z")
      const world = yield* fakes([recipient("ws_a", "usr_1", "owner"), recipient("ws_a", "usr_2", "admin")], new Set())
      // A run claimed usr_1's notice and died before sending it.
      yield* Ref.set(world.claims, new Map([[keyOf("listRuns", "ws_a", "usr_1"), start + claimLeaseMs]]))

      const meanwhile = yield* notify(world.layer)
      assert.deepStrictEqual(
        meanwhile.inProgress.map((r) => r.userId),
        ["usr_1"]
      )
      assert.deepStrictEqual(
        meanwhile.notified.map(({ record }) => record.userId),
        ["usr_2"]
      )

      yield* TestClock.adjust(claimLeaseMs)
      const after = yield* notify(world.layer)
      assert.deepStrictEqual(
        after.notified.map(({ record }) => record.userId),
        ["usr_1"]
      )
      assert.deepStrictEqual(after.inProgress, [])
      assert.deepStrictEqual(
        (yield* Ref.get(world.sent)).map((message) => message.to),
        ["usr_2@example.com", "usr_1@example.com"]
      )
    })
  )
})

describe("composeNotice", () => {
  it("names the workspace, the operation, its notice and sunset days, the replacement and the link", () => {
    const message = composeNotice(deprecation, recipient("ws_a", "usr_2", "admin"), 0)
    assert.strictEqual(message.to, "usr_2@example.com")
    assert.strictEqual(
      message.subject,
      "margin-service API: listRuns is deprecated and may be removed after 2026-07-15"
    )
    assert.include(message.text, `as an admin of the workspace "Shop ws_a" (ws_a)`)
    assert.include(message.text, "The v1 API operation listRuns is deprecated as of 2026-01-15.")
    assert.include(message.text, "It keeps working until at least 2026-07-15")
    assert.include(message.text, "Use this instead: GET /api/v1/runs/{run_id}")
    assert.include(message.text, "Details: https://docs.example/deprecations/list-runs")
  })

  it("says so when there is no replacement, and leaves out a missing link", () => {
    const message = composeNotice(
      { operation: "getRun", notice: "2026-01-15", sunset: "2026-07-15" },
      recipient("ws_a", "usr_1", "owner"),
      0
    )
    assert.include(message.text, "as an owner of the workspace")
    assert.include(message.text, "There is no replacement for it.")
    assert.notInclude(message.text, "Details:")
  })
})
