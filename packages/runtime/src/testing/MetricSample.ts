import { Effect } from "effect"

/** The value of an unlabelled sample in a Prometheus text exposition; 0 when it is not there yet. */
export const sample = (exposition: string, name: string): number => {
  const line = exposition.split("\n").find((candidate) => candidate.startsWith(`${name} `))
  return line === undefined ? 0 : Number(line.slice(name.length + 1))
}

/** An unlabelled metric of the process serving `baseUrl`, read from its /metrics. */
export const metricOf = (baseUrl: string, name: string): Effect.Effect<number> =>
  Effect.map(
    Effect.promise(() => fetch(`${baseUrl}/metrics`).then((response) => response.text())),
    (exposition) => sample(exposition, name)
  )

/**
 * How many budget checks the processes serving `baseUrls` answered from memory because the shared
 * store could not count in time: the cause to name when a shared budget lets too much through.
 */
export const fallbacksOf = (baseUrls: ReadonlyArray<string>): Effect.Effect<number> =>
  Effect.map(
    Effect.forEach(baseUrls, (baseUrl) => metricOf(baseUrl, "margin_rate_budget_fallback_total")),
    (counts) => counts.reduce((sum, count) => sum + count, 0)
  )
