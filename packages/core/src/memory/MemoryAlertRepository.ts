import { Effect, HashMap, Layer, Option } from "effect"
import type { Alert } from "../alerts/Alert.ts"
import { effectiveStatus } from "../alerts/AlertMachine.ts"
import { AlertRepository } from "../alerts/AlertRepository.ts"
import { decideAndSave, wholeRow } from "./internal/MemoryDecide.ts"
import { byCreatedAt, pageBy } from "./internal/MemoryPaging.ts"
import { getRow, rowsWhere } from "./internal/MemoryRows.ts"
import { alertsTable } from "./internal/MemoryTables.ts"
import { MemoryDatabase } from "./MemoryDatabase.ts"

/** Alerts of one subject: the same kind about the same item (or about no item) in one workspace. */
const subjectKey = (alert: Alert): string => `${alert.workspaceId}/${alert.itemId ?? ""}/${alert.kind}`

/** Open or snoozed: an alert that still stands and makes a new one of its subject redundant. */
const isStanding = (alert: Alert): boolean => alert.status === "open" || alert.status === "snoozed"

export const layer: Layer.Layer<AlertRepository, never, MemoryDatabase> = Layer.effect(
  AlertRepository,
  Effect.gen(function* () {
    const db = yield* MemoryDatabase
    return AlertRepository.of({
      get: (workspaceId, id) =>
        getRow(db, alertsTable, id).pipe(Effect.map(Option.filter((alert) => alert.workspaceId === workspaceId))),
      list: (workspaceId, filter, page, now) =>
        db.read((tables) =>
          pageBy(
            rowsWhere(
              tables.alerts,
              (alert) =>
                alert.workspaceId === workspaceId &&
                (filter.status === null || effectiveStatus(alert, now) === filter.status) &&
                (filter.kind === null || alert.kind === filter.kind) &&
                (filter.itemId === null || alert.itemId === filter.itemId)
            ),
            byCreatedAt,
            page
          )
        ),
      update: (workspaceId, id, decide) => decideAndSave(db, alertsTable, wholeRow(), workspaceId, id, decide),
      raiseMany: (alerts) =>
        db.modify((tables) => {
          const standing = new Set(rowsWhere(tables.alerts, isStanding).map(subjectKey))
          const raised = alerts.filter((alert) => {
            const key = subjectKey(alert)
            if (isStanding(alert) && standing.has(key)) return false
            if (HashMap.has(tables.alerts, alert.id)) return false
            if (isStanding(alert)) standing.add(key)
            return true
          })
          const rows = raised.reduce((all, alert) => HashMap.set(all, alert.id, alert), tables.alerts)
          return [raised.length, { ...tables, alerts: rows }]
        })
    })
  })
)
