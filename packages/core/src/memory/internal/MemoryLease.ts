import type { Lease } from "./MemoryTables.ts"

/** A row is free to claim when nobody holds it or its holder's lease has run out by `now`. */
export const isClaimable = (lease: Lease | null, now: number): boolean => lease === null || lease.until <= now

export const isHeldBy = (lease: Lease | null, owner: string): boolean => lease !== null && lease.owner === owner
