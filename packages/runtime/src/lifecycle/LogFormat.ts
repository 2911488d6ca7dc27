import { Config } from "effect"

/** How log lines look: JSON objects one a line, or lines for a person at a terminal. */
export type LogFormat = "json" | "pretty"

/**
 * LOG_FORMAT, `json` or `pretty`; unset: `pretty` when the stream the lines go to is a terminal
 * (`npm start` in a shell), `json` otherwise (a pipe, a file, a container's log collector), so
 * that nothing changes for a deployment and a person reads a terminal without a JSON tool.
 */
export const logFormatConfig = (terminal: boolean): Config.Config<LogFormat> =>
  Config.Literals(["json", "pretty"], "LOG_FORMAT").pipe(Config.withDefault(terminal ? "pretty" : "json"))
