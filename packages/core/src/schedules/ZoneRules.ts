import { Context } from "effect"

/**
 * The rules of the world's time zones (the IANA database), which core does not carry: whether a name
 * is a zone, and a zone's offset from UTC at an instant. The adapter reads the runtime's copy of the
 * database (Intl), so the answers move with it when a country changes its rules. Both answers are
 * pure functions of their arguments for one copy of the database.
 */
export class ZoneRules extends Context.Service<
  ZoneRules,
  {
    /** The zone's canonical name when `name` is an IANA zone ("Europe/Berlin", "UTC"), else null. */
    readonly canonical: (name: string) => string | null
    /** Milliseconds to add to an instant (epoch ms) to read it on the zone's wall clock. */
    readonly offsetAt: (zone: string, instant: number) => number
  }
>()("margin/core/ZoneRules") {}
