import { Effect, Layer } from "effect"
import { MembershipRepository } from "../access/MembershipRepository.ts"
import { hasAtLeast } from "../access/Role.ts"
import { compareStrings, deleteRowsWhere, getRow, putRow, rowsWhere } from "./internal/MemoryRows.ts"
import { membershipKey, membershipsTable } from "./internal/MemoryTables.ts"
import { MemoryDatabase } from "./MemoryDatabase.ts"

export const layer: Layer.Layer<MembershipRepository, never, MemoryDatabase> = Layer.effect(
  MembershipRepository,
  Effect.gen(function* () {
    const db = yield* MemoryDatabase
    return MembershipRepository.of({
      get: (workspaceId, userId) => getRow(db, membershipsTable, membershipKey(workspaceId, userId)),
      listForUser: (userId) =>
        db.read((tables) =>
          rowsWhere(tables.memberships, (membership) => membership.userId === userId).sort((a, b) =>
            compareStrings(a.workspaceId, b.workspaceId)
          )
        ),
      upsert: (membership) =>
        putRow(db, membershipsTable, membershipKey(membership.workspaceId, membership.userId), membership),
      remove: (workspaceId, userId) =>
        Effect.map(
          deleteRowsWhere(
            db,
            membershipsTable,
            (membership) => membership.workspaceId === workspaceId && membership.userId === userId
          ),
          (count) => count > 0
        ),
      // The port's contract: only owners and admins (they receive deprecation notices).
      listForWorkspace: (workspaceId) =>
        db.read((tables) =>
          rowsWhere(
            tables.memberships,
            (membership) => membership.workspaceId === workspaceId && hasAtLeast(membership.role, "admin")
          ).sort((a, b) => compareStrings(a.userId, b.userId))
        ),
      listMembers: (workspaceId, { afterUserId, limit }) =>
        db.read((tables) =>
          rowsWhere(
            tables.memberships,
            (membership) =>
              membership.workspaceId === workspaceId && (afterUserId === null || membership.userId > afterUserId)
          )
            .sort((a, b) => compareStrings(a.userId, b.userId))
            .slice(0, limit)
        )
    })
  })
)
