import { ZoneRules } from "@margin/core/schedules/ZoneRules"
import { Layer } from "effect"

/** Names only: Intl also takes offsets ("+05:00") on newer runtimes, which are no zone a merchant lives in. */
const zoneName = /^[A-Za-z][A-Za-z0-9_+\-/]*$/

/** One formatter per zone: building one costs far more than formatting with it. */
const formatters = new Map<string, Intl.DateTimeFormat>()

const formatterOf = (zone: string): Intl.DateTimeFormat => {
  const cached = formatters.get(zone)
  if (cached !== undefined) return cached
  const formatter = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric"
  })
  formatters.set(zone, formatter)
  return formatter
}

/** The zone's canonical name (ICU's spelling: "europe/berlin" is "Europe/Berlin"), or null for no zone. */
export const canonical = (name: string): string | null => {
  if (!zoneName.test(name)) return null
  // An unknown zone is a RangeError of the constructor: the one way Intl answers "no such zone".
  try {
    return formatterOf(name).resolvedOptions().timeZone
  } catch {
    return null
  }
}

/** The zone's offset at `instant`: its wall clock read back as if it were UTC, less the instant. */
export const offsetAt = (zone: string, instant: number): number => {
  const parts = formatterOf(zone).formatToParts(new Date(instant))
  const part = (type: Intl.DateTimeFormatPartTypes): number => Number(parts.find((p) => p.type === type)?.value ?? 0)
  const wall = Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"), part("second"))
  return wall - (instant - (((instant % 1000) + 1000) % 1000))
}

/** ZoneRules over the runtime's IANA database (Node's ICU). */
export const layer: Layer.Layer<ZoneRules> = Layer.succeed(ZoneRules, ZoneRules.of({ canonical, offsetAt }))
