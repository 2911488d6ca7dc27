import type { Run } from "@margin/core/runs/Run"

/** A run as `marginctl run watch` saw it at one instant (epoch ms). */
export interface Sighting {
  readonly run: Run
  readonly at: number
}

const finished = new Set(["succeeded", "failed", "cancelled"])

export const isFinished = (run: Run): boolean => finished.has(run.status)

const number = (n: number) => n.toLocaleString("en-US")

const duration = (ms: number): string => {
  const seconds = Math.max(0, Math.round(ms / 1000))
  return seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, "0")}s`
}

/** Items per second between two sightings of the same run; null until the run has moved. */
export const rateBetween = (earlier: Sighting, later: Sighting): number | null => {
  const items = later.run.itemsAnalysed - earlier.run.itemsAnalysed
  const ms = later.at - earlier.at
  return items > 0 && ms > 0 ? (items / ms) * 1000 : null
}

/**
 * One line of the progress display: a bar of `width` cells, the share and count of items analysed,
 * what the run found so far, and while it runs its pace and the time left at that pace.
 *
 *   running   [##########----------]  50%  500,000/1,000,000 items · 61,220 recommendations · 30,115 alerts · 52,000 items/s · 10s left
 */
export const progressLine = (run: Run, rate: number | null, width = 30): string => {
  const total = run.itemsTotal
  const share = total === null ? 0 : total === 0 ? 1 : Math.min(1, run.itemsAnalysed / total)
  const done = run.status === "succeeded" ? width : Math.floor(share * width)
  const bar = `[${"#".repeat(done)}${"-".repeat(width - done)}]`
  const percent = `${Math.floor((run.status === "succeeded" ? 1 : share) * 100)}%`.padStart(4)
  const items =
    total === null ? `${number(run.itemsAnalysed)} items` : `${number(run.itemsAnalysed)}/${number(total)} items`
  const parts = [
    `${run.status.padEnd(9)} ${bar} ${percent}  ${items}`,
    `${number(run.recommendationsCount)} recommendations`,
    `${number(run.alertsCount)} alerts`
  ]
  if (run.status === "running" && rate !== null) {
    parts.push(`${number(Math.round(rate))} items/s`)
    if (total !== null) parts.push(`${duration(((total - run.itemsAnalysed) / rate) * 1000)} left`)
  }
  if (isFinished(run) && run.startedAt !== null && run.finishedAt !== null) {
    parts.push(`took ${duration(run.finishedAt - run.startedAt)}`)
  }
  if (run.error !== null) parts.push(`error: ${run.error}`)
  return parts.join(" · ")
}
