import { Effect } from "effect"
import { MembershipRepository } from "../access/MembershipRepository.ts"
import type { Role } from "../access/Role.ts"
import { UserRepository } from "../access/UserRepository.ts"
import type { DeprecationNoticeRecord } from "../deprecation/DeprecationNotice.ts"
import { DeprecationNoticeRepository } from "../deprecation/DeprecationNoticeRepository.ts"
import type { UserId, WorkspaceId } from "../kernel/Ids.ts"
import { seedUser, seedWorkspace } from "./Seed.ts"

export const seedMember = (workspaceId: WorkspaceId, userId: UserId, role: Role) =>
  MembershipRepository.use((memberships) => memberships.upsert({ workspaceId, userId, role }))

/**
 * Who deprecation notices go to, and who not, through the ports: two workspaces; an owner of
 * both, an admin and an admin whose address is unconfirmed in A, an admin in B (all told); an
 * approver, a viewer and a deleted admin in A (never told).
 */
export const seedNoticeAudience = Effect.gen(function* () {
  const shopA = yield* seedWorkspace({ name: "Shop A" })
  const shopB = yield* seedWorkspace({ name: "Shop B" })
  const owner = yield* seedUser()
  const admin = yield* seedUser()
  const unconfirmedAdmin = yield* seedUser({ emailConfirmed: false })
  const approver = yield* seedUser()
  const viewer = yield* seedUser()
  const deletedAdmin = yield* seedUser()
  const adminB = yield* seedUser()
  yield* seedMember(shopA.id, owner.id, "owner")
  yield* seedMember(shopA.id, admin.id, "admin")
  yield* seedMember(shopA.id, unconfirmedAdmin.id, "admin")
  yield* seedMember(shopA.id, approver.id, "approver")
  yield* seedMember(shopA.id, viewer.id, "viewer")
  yield* seedMember(shopA.id, deletedAdmin.id, "admin")
  yield* UserRepository.use((users) => users.markDeleted(deletedAdmin.id, Date.parse("2026-01-01T00:00:00Z")))
  yield* seedMember(shopB.id, owner.id, "owner")
  yield* seedMember(shopB.id, adminB.id, "admin")
  return { shopA, shopB, owner, admin, unconfirmedAdmin, adminB }
})

/** When the audience's admin of shop A is told of listRuns, in the repository tests. */
export const noticeRecordedAt = Date.parse("2026-01-15T09:30:00.123Z")

/**
 * Records that `user` of `workspaceId` was told of listRuns (by SMTP, at `noticeRecordedAt`), then
 * records it again later by another transport, as a retried run would: the first must stay.
 */
export const recordListRunsNoticeTwice = (
  workspaceId: WorkspaceId,
  user: { readonly id: UserId; readonly email: string }
) =>
  DeprecationNoticeRepository.use((notices) => {
    const notice: DeprecationNoticeRecord = {
      operation: "listRuns",
      workspaceId,
      userId: user.id,
      email: user.email,
      notifiedAt: noticeRecordedAt,
      transport: "smtp"
    }
    return Effect.andThen(
      notices.record(notice),
      notices.record({ ...notice, notifiedAt: noticeRecordedAt + 60_000, transport: "eml" })
    )
  })
