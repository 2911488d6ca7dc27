import { Logger } from "effect"

/**
 * Logger.consoleJson's lines (Logger.formatJson, one JSON object a line), handed to `write` once per
 * event-loop turn rather than through one `console.log` each: on a server under load the lines of
 * many requests leave in one system call. With one log line per request, console.log was about a
 * tenth of the REST server's CPU per request (bench:http, docs/api.md). Lines still waiting when
 * the process exits are written then, synchronously.
 */
export const jsonLinesLogger = (write: (text: string) => void): Logger.Logger<unknown, void> => {
  let pending: Array<string> = []
  const flush = () => {
    if (pending.length === 0) return
    const text = `${pending.join("\n")}\n`
    pending = []
    write(text)
  }
  process.once("exit", flush)
  return Logger.map(Logger.formatJson, (line) => {
    if (pending.push(line) === 1) setImmediate(flush)
  })
}

/** `jsonLinesLogger` on the process's stdout. */
export const stdoutJsonLogger: Logger.Logger<unknown, void> = jsonLinesLogger((text) => {
  process.stdout.write(text)
})
