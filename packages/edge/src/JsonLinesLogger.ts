import { Formatter, Logger } from "effect"

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

/**
 * Logger.formatJson's line for `structured` (Logger.formatStructured's object). A request's line
 * holds only strings, numbers and null, which `JSON.stringify` writes exactly as Formatter.formatJson
 * does; its replacer (redaction, cycles, bigints) walked every value of every line, so it is kept for
 * the lines that need it.
 */
const formatLine = (structured: ReturnType<typeof Logger.formatStructured.log>): string =>
  typeof structured.message === "string" &&
  isJsonScalarRecord(structured.annotations) &&
  isJsonScalarRecord(structured.spans)
    ? JSON.stringify(structured)
    : Formatter.formatJson(structured)

/**
 * Logger.consoleJson's lines (Logger.formatJson, one JSON object a line), handed to `write` together
 * at most `flushAfterMs` after the first of them rather than through one `console.log` each: on a
 * server under load the lines of many requests leave in one system call (with one line per request,
 * a write each was a tenth of the REST server's CPU per request: bench:http, docs/api.md). Lines still
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
    const count = pending.push(formatLine(Logger.formatStructured.log(options)))
    if (count >= maxPendingLines) flush()
    // Unreferenced: waiting lines never keep a process alive; exit writes them.
    else if (count === 1) timer = setTimeout(flush, flushAfterMs).unref()
  })
}

/** `jsonLinesLogger` on the process's stdout. */
export const stdoutJsonLogger: Logger.Logger<unknown, void> = jsonLinesLogger((text) => {
  process.stdout.write(text)
})
