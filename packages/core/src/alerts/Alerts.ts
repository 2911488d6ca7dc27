import { Clock, Context, Effect, Layer, Option } from "effect"
import { type Actor, actorLabel } from "../access/Actor.ts"
import { AuditTrail } from "../audit/AuditTrail.ts"
import { InvalidInput, type RepositoryError, ResourceNotFound } from "../kernel/Errors.ts"
import type { AlertId, WorkspaceId } from "../kernel/Ids.ts"
import type { Page, PageRequest } from "../kernel/Page.ts"
import { type CommandError, settledValue } from "../kernel/Settle.ts"
import { Transactor } from "../kernel/Transactor.ts"
import type { Alert } from "./Alert.ts"
import * as Machine from "./AlertMachine.ts"
import { type AlertFilter, AlertRepository } from "./AlertRepository.ts"

/** The alert after a command, and whether the command had already taken effect. */
export interface AlertMutation {
  readonly alert: Alert
  readonly idempotent: boolean
}

/**
 * Alerts as callers see them: every alert this service answers carries its effective status at
 * the time of the call (a snooze that has passed reads `open`), so front doors never apply the rule.
 */
export class Alerts extends Context.Service<
  Alerts,
  {
    readonly list: (
      workspaceId: WorkspaceId,
      filter: AlertFilter,
      page: PageRequest
    ) => Effect.Effect<Page<Alert>, RepositoryError>
    readonly get: (workspaceId: WorkspaceId, id: AlertId) => Effect.Effect<Alert, ResourceNotFound | RepositoryError>
    /** `until` must lie in the future: otherwise `InvalidInput` at path `snooze_until`, before any lookup. */
    readonly snooze: (
      workspaceId: WorkspaceId,
      id: AlertId,
      until: number,
      reason: string,
      actor: Actor
    ) => Effect.Effect<AlertMutation, InvalidInput | CommandError>
    readonly resolve: (
      workspaceId: WorkspaceId,
      id: AlertId,
      actor: Actor
    ) => Effect.Effect<AlertMutation, CommandError>
    readonly dismiss: (
      workspaceId: WorkspaceId,
      id: AlertId,
      actor: Actor
    ) => Effect.Effect<AlertMutation, CommandError>
  }
>()("margin/core/Alerts") {
  static readonly layer = Layer.effect(
    Alerts,
    Effect.gen(function* () {
      const alerts = yield* AlertRepository
      const transactor = yield* Transactor
      const trail = yield* AuditTrail

      const asSeenAt = (alert: Alert, now: number): Alert => {
        const status = Machine.effectiveStatus(alert, now)
        return status === alert.status ? alert : { ...alert, status }
      }

      const mutate = (
        workspaceId: WorkspaceId,
        id: AlertId,
        command: Machine.AlertCommand,
        actor: Actor,
        now: number
      ): Effect.Effect<AlertMutation, CommandError> =>
        transactor
          .transaction(
            Effect.flatMap(
              alerts.update(workspaceId, id, (current) => Machine.decide(current, command, now)),
              (found) =>
                trail.transition(
                  {
                    workspaceId,
                    actor: actorLabel(actor),
                    action: `alert.${Machine.commandName(command)}`,
                    resourceType: "alert",
                    resourceId: id,
                    at: now,
                    statusOf: (alert) => Machine.effectiveStatus(alert, now)
                  },
                  found
                )
            )
          )
          .pipe(
            Effect.map((settled) => {
              const { value, idempotent } = settledValue(settled)
              return { alert: asSeenAt(value, now), idempotent }
            })
          )

      return Alerts.of({
        list: Effect.fn("Alerts.list")(function* (workspaceId, filter, page) {
          const now = yield* Clock.currentTimeMillis
          const found = yield* alerts.list(workspaceId, filter, page, now)
          return { ...found, items: found.items.map((alert) => asSeenAt(alert, now)) }
        }),
        get: Effect.fn("Alerts.get")(function* (workspaceId, id) {
          const now = yield* Clock.currentTimeMillis
          const found = yield* alerts.get(workspaceId, id)
          if (Option.isNone(found)) return yield* new ResourceNotFound({ resource: "alert", id })
          return asSeenAt(found.value, now)
        }),
        snooze: Effect.fn("Alerts.snooze")(function* (workspaceId, id, until, reason, actor) {
          const now = yield* Clock.currentTimeMillis
          if (until <= now) {
            return yield* new InvalidInput({ path: "snooze_until", message: "snooze_until must be in the future" })
          }
          return yield* mutate(workspaceId, id, Machine.snooze(until, reason), actor, now)
        }),
        resolve: Effect.fn("Alerts.resolve")(function* (workspaceId, id, actor) {
          return yield* mutate(workspaceId, id, Machine.resolve, actor, yield* Clock.currentTimeMillis)
        }),
        dismiss: Effect.fn("Alerts.dismiss")(function* (workspaceId, id, actor) {
          return yield* mutate(workspaceId, id, Machine.dismiss, actor, yield* Clock.currentTimeMillis)
        })
      })
    })
  ).pipe(Layer.provide(AuditTrail.layer))
}
