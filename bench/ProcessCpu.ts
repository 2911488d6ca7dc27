import { existsSync, readdirSync, readFileSync } from "node:fs"

/** BENCH_CPU_PART=user or system: only that part of a process's CPU time counts. */
const part = process.env.BENCH_CPU_PART

/** The fields of /proc/<pid>/stat after the command, or none once the process exited. */
const statFields = (pid: number | string): ReadonlyArray<string> =>
  readIfThere(`/proc/${pid}/stat`).split(") ")[1]?.split(" ") ?? []

/** The counted part of a user time and the system time after it (fields `user`, `user + 1`), in ms. */
const timeMs = (fields: ReadonlyArray<string>, user: number): number => {
  const ticks = (index: number) => Number(fields[index]) || 0
  if (part === "user") return ticks(user) * 10
  if (part === "system") return ticks(user + 1) * 10
  return (ticks(user) + ticks(user + 1)) * 10
}

/**
 * CPU time of a process so far, in ms, from /proc (Linux; clock ticks of 10 ms); null elsewhere or
 * once it exited. On a shared machine the CPU a request costs says more than the wall-clock rate.
 */
export const cpuMs = (pid: number): number | null => {
  // One read: a process that exits between a check and the read would otherwise count as 0 ms.
  const fields = statFields(pid)
  return fields.length === 0 ? null : timeMs(fields, 11)
}

/** The CPU time of several processes together; null if any is unknown. */
export const cpuOf = (pids: ReadonlyArray<number>): number | null =>
  pids.reduce<number | null>((sum, pid) => {
    const used = cpuMs(pid)
    return sum === null || used === null ? null : sum + used
  }, 0)

/** A /proc file's text, or "" when its process exited meanwhile. */
export const readIfThere = (path: string): string => {
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
    const fields = statFields(entry)
    // utime, stime (11, 12) and cutime, cstime (13, 14).
    sum += timeMs(fields, 11) + timeMs(fields, 13)
  }
  return sum
}

/** The machine's idle CPU time so far, in ms, over all cores (Linux; null elsewhere). */
export const idleMs = (): number | null => {
  if (!existsSync("/proc/stat")) return null
  const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]?.trim().split(/\s+/) ?? []
  return Number(fields[4]) * 10
}
