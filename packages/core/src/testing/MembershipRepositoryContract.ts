import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import type { Membership } from "../access/Membership.ts"
import { MembershipRepository } from "../access/MembershipRepository.ts"
import type { UserRepository } from "../access/UserRepository.ts"
import type { IdGenerator } from "../kernel/IdGenerator.ts"
import type { UserId } from "../kernel/Ids.ts"
import type { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import { aMembership } from "./Fixtures.ts"
import { seedUser, seedWorkspace } from "./Seed.ts"

export type MembershipContractServices = MembershipRepository | WorkspaceRepository | UserRepository | IdGenerator

const key = (membership: Membership) => `${membership.workspaceId}/${membership.userId}`
/** Order is not part of the contract: compare as sets. */
const sorted = (memberships: ReadonlyArray<Membership>) => [...memberships].sort((a, b) => (key(a) < key(b) ? -1 : 1))

/** The MembershipRepository port's contract: every adapter must pass it. */
export const membershipRepositoryContract = <E>(name: string, services: Layer.Layer<MembershipContractServices, E>) =>
  layer(services)(`MembershipRepository contract (${name})`, (it) => {
    it.effect("upsert adds a member, then changes the role; get is per workspace", () =>
      Effect.gen(function* () {
        const memberships = yield* MembershipRepository
        const workspace = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        const user = yield* seedUser()
        const analyst = aMembership({ workspaceId: workspace.id, userId: user.id, role: "analyst" })
        yield* memberships.upsert(analyst)
        assert.deepStrictEqual(yield* memberships.get(workspace.id, user.id), Option.some(analyst))
        assert.isTrue(Option.isNone(yield* memberships.get(other.id, user.id)))
        yield* memberships.upsert({ ...analyst, role: "approver" })
        assert.deepStrictEqual(
          yield* memberships.get(workspace.id, user.id),
          Option.some({ ...analyst, role: "approver" })
        )
      })
    )

    it.effect("listForUser gives every workspace of the user", () =>
      Effect.gen(function* () {
        const memberships = yield* MembershipRepository
        const user = yield* seedUser()
        const colleague = yield* seedUser()
        const mine: Array<Membership> = []
        for (const role of ["viewer", "owner"] as const) {
          const workspace = yield* seedWorkspace()
          const membership = aMembership({ workspaceId: workspace.id, userId: user.id, role })
          yield* memberships.upsert(membership)
          yield* memberships.upsert(aMembership({ workspaceId: workspace.id, userId: colleague.id }))
          mine.push(membership)
        }
        assert.deepStrictEqual(sorted(yield* memberships.listForUser(user.id)), sorted(mine))
        assert.deepStrictEqual(yield* memberships.listForUser((yield* seedUser()).id), [])
      })
    )

    it.effect("listForWorkspace gives the owners and admins of the workspace", () =>
      Effect.gen(function* () {
        const memberships = yield* MembershipRepository
        const workspace = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        const expected: Array<Membership> = []
        for (const role of ["viewer", "analyst", "approver", "admin", "owner"] as const) {
          const membership = aMembership({ workspaceId: workspace.id, userId: (yield* seedUser()).id, role })
          yield* memberships.upsert(membership)
          if (role === "admin" || role === "owner") expected.push(membership)
        }
        yield* memberships.upsert(aMembership({ workspaceId: other.id, userId: (yield* seedUser()).id, role: "owner" }))
        assert.deepStrictEqual(sorted(yield* memberships.listForWorkspace(workspace.id)), sorted(expected))
      })
    )

    it.effect("listMembers pages every member of the workspace by user id, whatever the role", () =>
      Effect.gen(function* () {
        const memberships = yield* MembershipRepository
        const workspace = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        const members: Array<Membership> = []
        for (const role of ["owner", "viewer", "analyst", "approver", "admin"] as const) {
          const membership = aMembership({ workspaceId: workspace.id, userId: (yield* seedUser()).id, role })
          yield* memberships.upsert(membership)
          members.push(membership)
        }
        yield* memberships.upsert(aMembership({ workspaceId: other.id, userId: (yield* seedUser()).id }))
        const byUser = [...members].sort((a, b) => (a.userId < b.userId ? -1 : 1))
        const pages: Array<ReadonlyArray<Membership>> = []
        let afterUserId: UserId | null = null
        for (;;) {
          const page: ReadonlyArray<Membership> = yield* memberships.listMembers(workspace.id, {
            afterUserId,
            limit: 2
          })
          pages.push(page)
          const last = page[page.length - 1]
          if (last === undefined) break
          afterUserId = last.userId
        }
        assert.deepStrictEqual(
          pages.map((page) => page.length),
          [2, 2, 1, 0]
        )
        assert.deepStrictEqual(pages.flat(), byUser)
        assert.deepStrictEqual(
          yield* memberships.listMembers((yield* seedWorkspace()).id, { afterUserId: null, limit: 5 }),
          []
        )
      })
    )

    it.effect("remove ends one membership, once; the user's others stay", () =>
      Effect.gen(function* () {
        const memberships = yield* MembershipRepository
        const workspace = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        const user = yield* seedUser()
        const here = aMembership({ workspaceId: workspace.id, userId: user.id, role: "admin" })
        const there = aMembership({ workspaceId: other.id, userId: user.id, role: "viewer" })
        yield* memberships.upsert(here)
        yield* memberships.upsert(there)
        assert.isTrue(yield* memberships.remove(workspace.id, user.id))
        assert.isTrue(Option.isNone(yield* memberships.get(workspace.id, user.id)))
        assert.isFalse(yield* memberships.remove(workspace.id, user.id))
        assert.deepStrictEqual(yield* memberships.listForUser(user.id), [there])
      })
    )
  })
