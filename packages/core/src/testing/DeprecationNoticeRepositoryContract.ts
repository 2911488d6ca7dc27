import { assert, layer } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import type { MembershipRepository } from "../access/MembershipRepository.ts"
import type { UserRepository } from "../access/UserRepository.ts"
import type { NoticeRecipient } from "../deprecation/DeprecationNotice.ts"
import { DeprecationNoticeRepository } from "../deprecation/DeprecationNoticeRepository.ts"
import type { IdGenerator } from "../kernel/IdGenerator.ts"
import type { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import { noticeRecordedAt, recordListRunsNoticeTwice, seedNoticeAudience } from "./NoticeAudience.ts"

export type DeprecationNoticeContractServices =
  | DeprecationNoticeRepository
  | MembershipRepository
  | WorkspaceRepository
  | UserRepository
  | IdGenerator

/**
 * The DeprecationNoticeRepository port's contract: every adapter must pass it. The claim rule is
 * the one DeprecationNotices relies on to send each notice once across processes.
 */
export const deprecationNoticeRepositoryContract = <E>(
  name: string,
  services: Layer.Layer<DeprecationNoticeContractServices, E>
) =>
  layer(services)(`DeprecationNoticeRepository contract (${name})`, (it) => {
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

          const at = noticeRecordedAt
          // A second record of the same notice (a retried run) keeps the first.
          yield* recordListRunsNoticeTwice(shopA.id, admin)

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
