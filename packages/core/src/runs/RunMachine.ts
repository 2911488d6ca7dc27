/**
 * The life of an analysis run (docs/contract.md, "States and repeats"):
 *
 * ```
 * queued --start--> running --succeed--> succeeded
 *   |                  \-----fail------> failed
 *   \--cancel--> cancelled
 * ```
 *
 * Decisions beyond the diagram:
 * - A repeat of a command that took effect is an `IdempotentRepeat`, whatever came after it.
 *   In particular `start` on a `running` run is a repeat: a run re-claimed after its worker
 *   died stays running and the new worker carries on. `start` on a finished run is a repeat
 *   too (it did start once), so an executor must check that the run it holds is `running`.
 * - Only a queued run can be cancelled: a running one finishes (or fails) on its own, and its
 *   results are kept.
 * - Only a running run can fail. A second `fail` keeps the first error.
 */

import type { Tag } from "../catalog/Tag.ts"
import type { RunId, WorkspaceId } from "../kernel/Ids.ts"
import * as Outcome from "../kernel/Outcome.ts"
import type { Run, RunStatus, RunTrigger } from "./Run.ts"

export type RunCommand =
  | { readonly _tag: "Start" }
  | { readonly _tag: "Succeed" }
  | { readonly _tag: "Fail"; readonly error: string }
  | { readonly _tag: "Cancel" }

export type RunCommandTag = RunCommand["_tag"]

interface Rule {
  readonly from: ReadonlyArray<RunStatus>
  readonly to: RunStatus
  readonly tookEffect: (run: Run) => boolean
}

/** Every allowed transition, and how the machine recognises a repeat. */
export const runTransitions = {
  Start: { from: ["queued"], to: "running", tookEffect: (run) => run.startedAt !== null },
  Succeed: { from: ["running"], to: "succeeded", tookEffect: (run) => run.status === "succeeded" },
  Fail: { from: ["running"], to: "failed", tookEffect: (run) => run.status === "failed" },
  Cancel: { from: ["queued"], to: "cancelled", tookEffect: (run) => run.status === "cancelled" }
} as const satisfies Record<RunCommandTag, Rule>

/** What asking for a run says. */
export interface RunRequest {
  readonly id: RunId
  readonly workspaceId: WorkspaceId
  readonly subsetTags: ReadonlyArray<Tag>
  readonly trigger: RunTrigger
  readonly requestedBy: string | null
}

/** The machine's initial state: a queued run, nothing analysed yet. */
export const queue = (request: RunRequest, now: number): Run => ({
  ...request,
  status: "queued",
  itemsTotal: null,
  itemsAnalysed: 0,
  recommendationsCount: 0,
  alertsCount: 0,
  error: null,
  version: 0,
  createdAt: now,
  startedAt: null,
  finishedAt: null
})

export const start: RunCommand = { _tag: "Start" }
export const succeed: RunCommand = { _tag: "Succeed" }
export const fail = (error: string): RunCommand => ({ _tag: "Fail", error })
export const cancel: RunCommand = { _tag: "Cancel" }

export const commandName = (command: RunCommand): string => command._tag.toLowerCase()

/** Decides one command on one run at `now`. Pure and total: it never throws. */
export const decide = (run: Run, command: RunCommand, now: number): Outcome.Outcome<Run> => {
  const rule: Rule = runTransitions[command._tag]
  if (rule.tookEffect(run)) return Outcome.idempotentRepeat(run)
  if (!rule.from.includes(run.status)) {
    return Outcome.conflict(
      run,
      `${commandName(command)} is allowed only from ${rule.from.join(" or ")}; the run is ${run.status}`
    )
  }
  return Outcome.transitioned(run, { ...run, ...effects(command, now), status: rule.to })
}

const effects = (command: RunCommand, now: number): Partial<Run> => {
  switch (command._tag) {
    case "Start":
      return { startedAt: now }
    case "Succeed":
    case "Cancel":
      return { finishedAt: now }
    case "Fail":
      return { finishedAt: now, error: command.error }
  }
}
