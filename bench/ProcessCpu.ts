import { existsSync, readdirSync, readFileSync } from "node:fs"

/** BENCH_CPU_PART=user or system: only that part of a process's CPU time counts. */
const part = process.env.BENCH_CPU_PART

/**
 * CPU time of a process so far, in ms, from /proc (Linux; clock ticks of 10 ms); null elsewhere or
 * once it exited. On a shared machine the CPU a request costs says more than the wall-clock rate.
 */
export const cpuMs = (pid: number): number | null => {
  const path = `/proc/${pid}/stat`
  if (!existsSync(path)) return null
  const fields = readFileSync(path, "utf8").split(") ")[1]?.split(" ") ?? []
  if (part === "user") return Number(fields[11]) * 10
  if (part === "system") return Number(fields[12]) * 10
  return (Number(fields[11]) + Number(fields[12])) * 10
}

/** The CPU time of several processes together; null if any is unknown. */
export const cpuOf = (pids: ReadonlyArray<number>): number | null =>
  pids.reduce<number | null>((sum, pid) => {
    const used = cpuMs(pid)
    return sum === null || used === null ? null : sum + used
  }, 0)

/** A /proc file's text, or "" when its process exited meanwhile. */
const readIfThere = (path: string): string => {
  try {
    return readFileSync(path, "utf8")
  } catch {
    return ""
  }
}

/**
 * CPU time of every PostgreSQL process of this machine so far, in ms (Linux; null elsewhere): the
 * database's share of a request when only one server is being measured. A backend that exits takes
 * its CPU time with it, into its parent's children's time (cutime, cstime): counted too, so that
 * the sum never goes down when a connection closes.
 */
export const databaseCpuMs = (): number | null => {
  if (!existsSync("/proc/self/stat")) return null
  let sum = 0
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    if (readIfThere(`/proc/${entry}/comm`).trim() !== "postgres") continue
    const fields = readIfThere(`/proc/${entry}/stat`).split(") ")[1]?.split(" ") ?? []
    const own = part === "system" ? [12] : part === "user" ? [11] : [11, 12]
    const children = part === "system" ? [14] : part === "user" ? [13] : [13, 14]
    for (const index of [...own, ...children]) sum += (Number(fields[index]) || 0) * 10
  }
  return sum
}

/** The machine's idle CPU time so far, in ms, over all cores (Linux; null elsewhere). */
export const idleMs = (): number | null => {
  if (!existsSync("/proc/stat")) return null
  const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]?.trim().split(/\s+/) ?? []
  return Number(fields[4]) * 10
}
