import { existsSync, readFileSync } from "node:fs"

/**
 * CPU time of a process so far, in ms, from /proc (Linux; clock ticks of 10 ms); null elsewhere or
 * once it exited. On a shared machine the CPU a request costs says more than the wall-clock rate.
 */
export const cpuMs = (pid: number): number | null => {
  const path = `/proc/${pid}/stat`
  if (!existsSync(path)) return null
  const fields = readFileSync(path, "utf8").split(") ")[1]?.split(" ") ?? []
  return (Number(fields[11]) + Number(fields[12])) * 10
}

/** The CPU time of several processes together; null if any is unknown. */
export const cpuOf = (pids: ReadonlyArray<number>): number | null =>
  pids.reduce<number | null>((sum, pid) => {
    const used = cpuMs(pid)
    return sum === null || used === null ? null : sum + used
  }, 0)
