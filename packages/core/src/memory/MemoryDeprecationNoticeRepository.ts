import { Effect, HashMap, Layer, Option } from "effect"
import { hasAtLeast } from "../access/Role.ts"
import type {
  DeprecationNoticeClaim,
  DeprecationNoticeRecord,
  NoticeRecipient
} from "../deprecation/DeprecationNotice.ts"
import { type ClaimOutcome, DeprecationNoticeRepository } from "../deprecation/DeprecationNoticeRepository.ts"
import { compareStrings, rowsWhere } from "./internal/MemoryRows.ts"
import {
  type DeprecationNoticeRow,
  deprecationNoticeKey,
  deprecationNoticesTable,
  type Tables
} from "./internal/MemoryTables.ts"
import { MemoryDatabase } from "./MemoryDatabase.ts"

const rowsOf = (tables: Tables) => deprecationNoticesTable.rows(tables)

const withRows = (tables: Tables, rows: HashMap.HashMap<string, DeprecationNoticeRow>) =>
  deprecationNoticesTable.withRows(tables, rows)

/**
 * The claim rule of the PostgreSQL adapter's one statement: a notice nobody holds is claimed; an
 * unsent one whose claim lapsed by `claim.at` is taken over; a sent one is `sent`; a live claim `held`.
 */
const decideClaim = (row: Option.Option<DeprecationNoticeRow>, claim: DeprecationNoticeClaim): ClaimOutcome => {
  if (Option.isNone(row)) return "claimed"
  if (row.value.notifiedAt !== null) return "sent"
  return row.value.claimedUntil !== null && row.value.claimedUntil <= claim.at ? "claimed" : "held"
}

export const layer: Layer.Layer<DeprecationNoticeRepository, never, MemoryDatabase> = Layer.effect(
  DeprecationNoticeRepository,
  Effect.gen(function* () {
    const db = yield* MemoryDatabase
    return DeprecationNoticeRepository.of({
      recipients: (operation) =>
        db.read((tables) =>
          rowsWhere(tables.memberships, (membership) => hasAtLeast(membership.role, "admin"))
            .flatMap((membership): ReadonlyArray<NoticeRecipient> => {
              const user = HashMap.get(tables.users, membership.userId)
              const workspace = HashMap.get(tables.workspaces, membership.workspaceId)
              if (Option.isNone(user) || Option.isNone(workspace) || user.value.deletedAt !== null) return []
              const notice = HashMap.get(
                rowsOf(tables),
                deprecationNoticeKey(operation, membership.workspaceId, membership.userId)
              )
              return [
                {
                  workspaceId: membership.workspaceId,
                  workspaceName: workspace.value.name,
                  userId: membership.userId,
                  email: user.value.email,
                  emailConfirmed: user.value.emailConfirmed,
                  role: membership.role,
                  notifiedAt: Option.isSome(notice) ? notice.value.notifiedAt : null
                }
              ]
            })
            .sort((a, b) => compareStrings(a.workspaceId, b.workspaceId) || compareStrings(a.userId, b.userId))
        ),
      claim: (claim) =>
        db.modify((tables) => {
          const key = deprecationNoticeKey(claim.operation, claim.workspaceId, claim.userId)
          const row = HashMap.get(rowsOf(tables), key)
          const outcome = decideClaim(row, claim)
          if (outcome !== "claimed") return [outcome, tables]
          const claimed: DeprecationNoticeRow = {
            operation: claim.operation,
            workspaceId: claim.workspaceId,
            userId: claim.userId,
            email: claim.email,
            transport: claim.transport,
            notifiedAt: null,
            claimedUntil: claim.until
          }
          return [outcome, withRows(tables, HashMap.set(rowsOf(tables), key, claimed))]
        }),
      record: (notice: DeprecationNoticeRecord) =>
        db.update((tables) => {
          const key = deprecationNoticeKey(notice.operation, notice.workspaceId, notice.userId)
          const row = HashMap.get(rowsOf(tables), key)
          // The first record stays.
          if (Option.isSome(row) && row.value.notifiedAt !== null) return tables
          const sent: DeprecationNoticeRow = { ...notice, claimedUntil: null }
          return withRows(tables, HashMap.set(rowsOf(tables), key, sent))
        }),
      release: (operation, workspaceId, userId) =>
        db.update((tables) => {
          const key = deprecationNoticeKey(operation, workspaceId, userId)
          const row = HashMap.get(rowsOf(tables), key)
          return Option.isSome(row) && row.value.notifiedAt === null
            ? withRows(tables, HashMap.remove(rowsOf(tables), key))
            : tables
        })
    })
  })
)
