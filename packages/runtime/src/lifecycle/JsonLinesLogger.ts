import { toIso } from "@margin/core/kernel/Timestamp"
import { Logger, References } from "effect"

/** How long a line may wait for the lines after it, so that they leave in one write. */
export const defaultFlushAfterMs = 25

/** Lines held at most: past this many, they are written at once rather than waiting for the timer. */
const maxPendingLines = 1_000

const isJsonScalar = (value: unknown): boolean =>
  value === null ||
  typeof value === "string" ||
  typeof value === "boolean" ||
  (typeof value === "number" && Number.isFinite(value))

const isJsonScalarRecord = (record: Readonly<Record<string, unknown>>): boolean => {
  for (const key in record) if (!isJsonScalar(record[key])) return false
  return true
}

/** The message of a line when it is one string, as `Effect.log("text")` passes it; else undefined. */
const plainMessage = (message: unknown): string | undefined =>
  typeof message === "string"
    ? message
    : Array.isArray(message) && message.length === 1 && typeof message[0] === "string"
      ? message[0]
      : undefined

/**
 * Logger.formatJson's line, the same text: a line of one string with only strings, numbers, booleans
 * and nulls in its annotations, no log spans and no cause (every request's line) is written by
 * `JSON.stringify` straight from the fiber's annotations, its instant by `toIso`. Logger.formatStructured
 * copied the annotations entry by entry and Formatter.formatJson's replacer walked every value again
 * (redaction, cycles, bigints), a visible part of the log line's cost per request; every other line
 * still goes through them.
 */
const formatLine = (options: Logger.Options<unknown>): string => {
  const message = plainMessage(options.message)
  const annotations = options.fiber.getRef(References.CurrentLogAnnotations)
  if (
    message !== undefined &&
    options.cause.reasons.length === 0 &&
    options.fiber.getRef(References.CurrentLogSpans).length === 0 &&
    isJsonScalarRecord(annotations)
  ) {
    return JSON.stringify({
      message,
      level: options.logLevel.toUpperCase(),
      timestamp: toIso(options.date.getTime()),
      annotations,
      spans: {},
      fiberId: `#${options.fiber.id}`
    })
  }
  return Logger.formatJson.log(options)
}

/**
 * Logger.consoleJson's lines (Logger.formatJson, one JSON object a line), handed to `write` together
 * at most `flushAfterMs` after the first of them rather than through one `console.log` each: on a
 * server under load the lines of many requests leave in one system call (with one line per request,
 * a write each was a tenth of the REST server's CPU per request: bench:http, docs/history/performance-log.md). Lines still
 * waiting when the process exits are written then, synchronously.
 */
export const jsonLinesLogger = (
  write: (text: string) => void,
  options: { readonly flushAfterMs?: number } = {}
): Logger.Logger<unknown, void> => {
  const flushAfterMs = options.flushAfterMs ?? defaultFlushAfterMs
  let pending: Array<string> = []
  let timer: ReturnType<typeof setTimeout> | undefined
  const flush = () => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    if (pending.length === 0) return
    const text = `${pending.join("\n")}\n`
    pending = []
    write(text)
  }
  process.once("exit", flush)
  return Logger.make((options) => {
    const count = pending.push(formatLine(options))
    if (count >= maxPendingLines) flush()
    // Unreferenced: waiting lines never keep a process alive; exit writes them.
    else if (count === 1) timer = setTimeout(flush, flushAfterMs).unref()
  })
}

/** `jsonLinesLogger` on the process's stdout. */
export const stdoutJsonLogger: Logger.Logger<unknown, void> = jsonLinesLogger((text) => {
  process.stdout.write(text)
})
