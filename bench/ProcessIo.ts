import { readIfThere } from "./ProcessCpu.ts"

export interface Syscalls {
  readonly reads: number
  readonly writes: number
}

/**
 * The read and write system calls of a process so far (`syscr`, `syscw` of /proc/<pid>/io: sockets,
 * pipes and files alike); null elsewhere or once it exited. On a machine where a system call is
 * dear, two servers that make different numbers of them per request differ for that alone.
 */
export const syscallsOf = (pid: number): Syscalls | null => {
  const fields = new Map(
    readIfThere(`/proc/${pid}/io`)
      .split("\n")
      .map((line) => line.split(":").map((part) => part.trim()))
      .flatMap(([name, value]) => (name === undefined || value === undefined ? [] : [[name, Number(value)] as const]))
  )
  const reads = fields.get("syscr")
  const writes = fields.get("syscw")
  return reads === undefined || writes === undefined ? null : { reads, writes }
}

/** The system calls made between two readings of one process; null when either is unknown. */
export const syscallsBetween = (before: Syscalls | null, after: Syscalls | null): Syscalls | null =>
  before === null || after === null ? null : { reads: after.reads - before.reads, writes: after.writes - before.writes }
