import { assert, describe, it } from "@effect/vitest"
import { Effect, HashMap, Layer, Ref } from "effect"
import { TestClock } from "effect/testing"
import { UserId, WorkspaceId } from "../kernel/Ids.ts"
import { Mailer, type MailMessage, MailNotSent } from "../kernel/Mailer.ts"
import * as MemoryAdapters from "../memory/MemoryAdapters.ts"
import { MemoryDatabase } from "../memory/MemoryDatabase.ts"
import { aWorkspace } from "../testing/Fixtures.ts"
import { seedMember } from "../testing/NoticeAudience.ts"
import { seedUser } from "../testing/Seed.ts"
import { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import type { Deprecation } from "./Deprecation.ts"
import { composeNotice, type NoticeRecipient } from "./DeprecationNotice.ts"
import { DeprecationNoticeRepository } from "./DeprecationNoticeRepository.ts"
import { claimLeaseMs, DeprecationNotices } from "./DeprecationNotices.ts"

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

/** Stores an owner or admin (their workspace and user too, once each) through the memory adapters. */
const seedRecipient = (person: NoticeRecipient) =>
  Effect.gen(function* () {
    const { workspaces, users } = yield* MemoryDatabase.use((db) => db.snapshot)
    if (!HashMap.has(workspaces, person.workspaceId)) {
      yield* WorkspaceRepository.use((repository) =>
        repository.insert(aWorkspace({ id: person.workspaceId, name: person.workspaceName }))
      )
    }
    if (!HashMap.has(users, person.userId)) yield* seedUser({ id: person.userId, email: person.email })
    yield* seedMember(person.workspaceId, person.userId, person.role)
  })

/**
 * The memory adapter of the repository (the PostgreSQL adapter's claim rule, held by the
 * contract suite) and a mailer that records what it sends and refuses some addresses. A send
 * yields first, so that concurrent calls interleave. The service is built over `repository`.
 */
const world = (members: ReadonlyArray<NoticeRecipient>, refused: ReadonlySet<string>) =>
  Effect.gen(function* () {
    yield* Effect.forEach(members, seedRecipient, { discard: true })
    const repository = yield* DeprecationNoticeRepository
    const sent = yield* Ref.make<ReadonlyArray<MailMessage>>([])
    const refuse = yield* Ref.make(refused)
    const mailer = Mailer.of({
      transport: "smtp",
      send: (message) =>
        Effect.flatMap(Effect.andThen(Effect.yieldNow, Ref.get(refuse)), (refusing) =>
          refusing.has(message.to)
            ? Effect.fail(new MailNotSent({ to: message.to, reason: "550 mailbox unavailable" }))
            : Ref.update(sent, (all) => [...all, message])
        )
    })
    const over = (notices: DeprecationNoticeRepository["Service"]) =>
      DeprecationNotices.layer.pipe(
        Layer.provide([Layer.succeed(DeprecationNoticeRepository, notices), Layer.succeed(Mailer, mailer)])
      )
    return { repository, sent, refuse, layer: over(repository), over }
  })

/** Who the repository has as told of `operation`, and when: [workspace, user, notifiedAt]. */
const toldOf = (operation: string) =>
  Effect.map(
    DeprecationNoticeRepository.use((notices) => notices.recipients(operation)),
    (recipients): ReadonlyArray<readonly [string, string, number]> =>
      recipients.flatMap((r) => (r.notifiedAt === null ? [] : [[r.workspaceId, r.userId, r.notifiedAt] as const]))
  )

const notify = (layer: Layer.Layer<DeprecationNotices>) =>
  DeprecationNotices.use((notices) => notices.notify(deprecation)).pipe(Effect.provide(layer))

describe("DeprecationNotices.notify", () => {
  it.effect("e-mails each owner and admin once, records when, and a second call sends nothing", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.parse("2026-01-15T09:00:00Z"))
      const w = yield* world(
        [recipient("ws_a", "usr_1", "owner"), recipient("ws_a", "usr_2", "admin"), recipient("ws_b", "usr_1", "owner")],
        new Set()
      )
      const first = yield* notify(w.layer)
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
      const at = Date.parse("2026-01-15T09:00:00Z")
      assert.deepStrictEqual(yield* toldOf("listRuns"), [
        ["ws_a", "usr_1", at],
        ["ws_a", "usr_2", at],
        ["ws_b", "usr_1", at]
      ])
      const rows = HashMap.toValues((yield* MemoryDatabase.use((db) => db.snapshot)).deprecationNotices)
      assert.isTrue(rows.every((row) => row.transport === "smtp" && row.claimedUntil === null))
      // One message per (workspace, user): usr_1 gets one for each of their workspaces.
      assert.deepStrictEqual(
        (yield* Ref.get(w.sent)).map((message) => message.key),
        ["deprecation.listRuns.ws_a.usr_1", "deprecation.listRuns.ws_a.usr_2", "deprecation.listRuns.ws_b.usr_1"]
      )

      const again = yield* notify(w.layer)
      assert.deepStrictEqual(again.notified, [])
      assert.strictEqual(again.alreadyNotified, 3)
      assert.strictEqual((yield* Ref.get(w.sent)).length, 3)

      // A new admin is told on the next call; nobody else is told twice.
      yield* seedRecipient(recipient("ws_b", "usr_3", "admin"))
      const later = yield* notify(w.layer)
      assert.deepStrictEqual(
        later.notified.map(({ record }) => record.userId),
        ["usr_3"]
      )
      assert.strictEqual(later.alreadyNotified, 3)
    }).pipe(Effect.provide(MemoryAdapters.layer))
  )

  it.effect("a refused recipient is reported, not recorded, and tried again next time; the others are sent", () =>
    Effect.gen(function* () {
      const w = yield* world(
        [recipient("ws_a", "usr_1", "owner"), recipient("ws_a", "usr_2", "admin")],
        new Set(["usr_1@example.com"])
      )
      const first = yield* notify(w.layer)
      assert.deepStrictEqual(
        first.failed.map((f) => [f.recipient.userId, f.reason]),
        [["usr_1", "550 mailbox unavailable"]]
      )
      assert.deepStrictEqual(
        first.notified.map(({ record }) => record.userId),
        ["usr_2"]
      )
      assert.deepStrictEqual(
        (yield* toldOf("listRuns")).map(([, userId]) => userId),
        ["usr_2"]
      )

      yield* Ref.set(w.refuse, new Set())
      const retry = yield* notify(w.layer)
      assert.deepStrictEqual(
        retry.notified.map(({ record }) => record.userId),
        ["usr_1"]
      )
      assert.strictEqual(retry.alreadyNotified, 1)
      assert.deepStrictEqual(retry.failed, [])
    }).pipe(Effect.provide(MemoryAdapters.layer))
  )

  it.effect("two calls at once send each notice once: the second finds the first's claims", () =>
    Effect.gen(function* () {
      const w = yield* world(
        [recipient("ws_a", "usr_1", "owner"), recipient("ws_a", "usr_2", "admin"), recipient("ws_b", "usr_3", "owner")],
        new Set()
      )
      const [one, two] = yield* Effect.all([notify(w.layer), notify(w.layer)], { concurrency: 2 })
      assert.deepStrictEqual((yield* Ref.get(w.sent)).map((message) => message.key).sort(), [
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
    }).pipe(Effect.provide(MemoryAdapters.layer))
  )

  it.effect(
    "a recipient another call told after this one read the list counts as told before, not as in progress",
    () =>
      Effect.gen(function* () {
        const w = yield* world([recipient("ws_a", "usr_1", "owner"), recipient("ws_a", "usr_2", "admin")], new Set())
        // Another call tells usr_1 right after this one read the list (with usr_1 untold in it).
        const told = {
          operation: "listRuns",
          workspaceId: WorkspaceId.make("ws_a"),
          userId: UserId.make("usr_1"),
          email: "usr_1@example.com",
          notifiedAt: 0,
          transport: "smtp"
        } as const
        const raced = DeprecationNoticeRepository.of({
          ...w.repository,
          recipients: (operation) => Effect.tap(w.repository.recipients(operation), () => w.repository.record(told))
        })
        const report = yield* notify(w.over(raced))
        assert.deepStrictEqual(
          report.notified.map(({ record }) => record.userId),
          ["usr_2"]
        )
        assert.strictEqual(report.alreadyNotified, 1)
        assert.deepStrictEqual(report.inProgress, [])
        assert.deepStrictEqual(
          (yield* Ref.get(w.sent)).map((message) => message.to),
          ["usr_2@example.com"]
        )
      }).pipe(Effect.provide(MemoryAdapters.layer))
  )

  it.effect("a claim left by a run that stopped holds the notice back until it lapses, then it is sent", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.parse("2026-01-15T09:00:00Z"))
      const start = Date.parse("2026-01-15T09:00:00Z")
      const w = yield* world([recipient("ws_a", "usr_1", "owner"), recipient("ws_a", "usr_2", "admin")], new Set())
      // A run claimed usr_1's notice and died before sending it.
      const claimed = yield* w.repository.claim({
        operation: "listRuns",
        workspaceId: WorkspaceId.make("ws_a"),
        userId: UserId.make("usr_1"),
        email: "usr_1@example.com",
        transport: "smtp",
        at: start,
        until: start + claimLeaseMs
      })
      assert.strictEqual(claimed, "claimed")

      const meanwhile = yield* notify(w.layer)
      assert.deepStrictEqual(
        meanwhile.inProgress.map((r) => r.userId),
        ["usr_1"]
      )
      assert.deepStrictEqual(
        meanwhile.notified.map(({ record }) => record.userId),
        ["usr_2"]
      )

      yield* TestClock.adjust(claimLeaseMs)
      const after = yield* notify(w.layer)
      assert.deepStrictEqual(
        after.notified.map(({ record }) => record.userId),
        ["usr_1"]
      )
      assert.deepStrictEqual(after.inProgress, [])
      assert.deepStrictEqual(
        (yield* Ref.get(w.sent)).map((message) => message.to),
        ["usr_2@example.com", "usr_1@example.com"]
      )
    }).pipe(Effect.provide(MemoryAdapters.layer))
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
