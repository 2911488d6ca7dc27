/**
 * The life of an alert (docs/contract.md, "States and repeats"):
 *
 * ```
 * open --snooze--> snoozed --(snoozed_until passes)--> open
 * open | snoozed --resolve--> resolved
 * open | snoozed --dismiss--> dismissed
 * ```
 *
 * The "snoozed_until passes" edge is read from the clock, never written by a job:
 * `effectiveStatus(alert, now)` is what every command and every list filter sees.
 *
 * Repeats are idempotent whatever happened after them: a snooze with the `snoozedUntil`
 * already recorded (also once the alert was resolved or dismissed), a second resolve,
 * a second dismiss. A snooze with a new instant moves the snooze while the alert is open
 * or snoozed. A snooze that is not in the future is refused here too, although the use
 * case rejects it as invalid input before the machine sees it.
 */

import { AlertId, type CatalogItemId, type RunId, type WorkspaceId } from "../kernel/Ids.ts"
import * as Outcome from "../kernel/Outcome.ts"
import type { Alert, AlertStatus } from "./Alert.ts"
import type { AlertFinding } from "./AlertFinding.ts"

export type AlertCommand =
  | { readonly _tag: "Snooze"; readonly until: number; readonly reason: string }
  | { readonly _tag: "Resolve" }
  | { readonly _tag: "Dismiss" }

export type AlertCommandTag = AlertCommand["_tag"]

interface Rule {
  /** Effective statuses the command is allowed from. */
  readonly from: ReadonlyArray<AlertStatus>
  readonly to: AlertStatus
  readonly tookEffect: (alert: Alert, command: AlertCommand) => boolean
}

/** Every allowed transition, and how the machine recognises a repeat. */
export const alertTransitions = {
  Snooze: {
    from: ["open", "snoozed"],
    to: "snoozed",
    tookEffect: (alert, command) => command._tag === "Snooze" && alert.snoozedUntil === command.until
  },
  Resolve: { from: ["open", "snoozed"], to: "resolved", tookEffect: (alert) => alert.resolvedAt !== null },
  Dismiss: { from: ["open", "snoozed"], to: "dismissed", tookEffect: (alert) => alert.dismissedAt !== null }
} as const satisfies Record<AlertCommandTag, Rule>

/** Where a finding was made: which workspace, run (null outside a run) and item. */
export interface AlertOrigin {
  readonly workspaceId: WorkspaceId
  readonly runId: RunId | null
  readonly itemId: CatalogItemId | null
}

/** The machine's initial state: a new, open alert for a finding. */
export const raise = (id: string, origin: AlertOrigin, finding: AlertFinding, now: number): Alert => ({
  id: AlertId.make(id),
  ...origin,
  ...finding,
  status: "open",
  snoozedUntil: null,
  snoozeReason: null,
  resolvedAt: null,
  dismissedAt: null,
  version: 0,
  createdAt: now,
  updatedAt: now
})

export const snooze = (until: number, reason: string): AlertCommand => ({ _tag: "Snooze", until, reason })
export const resolve: AlertCommand = { _tag: "Resolve" }
export const dismiss: AlertCommand = { _tag: "Dismiss" }

export const commandName = (command: AlertCommand): string => command._tag.toLowerCase()

/** A snooze whose instant has passed reads as open. */
export const effectiveStatus = (alert: Alert, now: number): AlertStatus =>
  alert.status === "snoozed" && (alert.snoozedUntil === null || alert.snoozedUntil <= now) ? "open" : alert.status

/** Decides one command on one alert at `now`. Pure and total: it never throws. */
export const decide = (alert: Alert, command: AlertCommand, now: number): Outcome.Outcome<Alert> => {
  const rule: Rule = alertTransitions[command._tag]
  if (rule.tookEffect(alert, command)) return Outcome.idempotentRepeat(alert)
  const status = effectiveStatus(alert, now)
  if (!rule.from.includes(status)) {
    return Outcome.conflict(
      alert,
      `${commandName(command)} is allowed only from ${rule.from.join(" or ")}; the alert is ${status}`
    )
  }
  if (command._tag === "Snooze" && command.until <= now) {
    return Outcome.conflict(alert, "snooze_until must be in the future")
  }
  return Outcome.transitioned(alert, { ...alert, ...effects(command, now), status: rule.to })
}

const effects = (command: AlertCommand, now: number): Partial<Alert> => {
  switch (command._tag) {
    case "Snooze":
      return { snoozedUntil: command.until, snoozeReason: command.reason, updatedAt: now }
    case "Resolve":
      return { resolvedAt: now, updatedAt: now }
    case "Dismiss":
      return { dismissedAt: now, updatedAt: now }
  }
}
