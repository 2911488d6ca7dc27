import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Effect } from "effect"
import { restListenConfig } from "../config/ListenConfig.ts"
import { type Logging, stdout } from "./Logging.ts"
import { ensurePortFree } from "./PortCheck.ts"
import * as ProcessExit from "./ProcessExit.ts"
import { explainStartFailure } from "./StartupFailure.ts"

/** A one-shot check a script runs before a process (`npm start`'s port check). */
export interface CheckDefinition<E> {
  readonly program: Effect.Effect<void, E>
  readonly logging: Logging
}

/**
 * Runs a check: exits 0 when it holds; otherwise says why in the one line a failed start writes
 * (`margin-service cannot start: <reason>`) and exits 1, so that `&&` stops what follows.
 */
export const check = <E>(definition: CheckDefinition<E>): void =>
  definition.program.pipe(
    explainStartFailure,
    Effect.provide(definition.logging),
    NodeRuntime.runMain({ disableErrorReporting: true, teardown: ProcessExit.teardown })
  )

/**
 * `npm start`'s first step (apps/http/src/portCheck.ts), before the demo is seeded and its tokens
 * printed: PORT is free on HOST. It loads no more than this (the service's wiring takes seconds
 * to load on a busy machine), so it reads PORT and HOST only; the server checks the rest.
 */
export const restPortCheck: CheckDefinition<unknown> = {
  program: Effect.flatMap(restListenConfig, ({ host, port }) => ensurePortFree({ host, port, portSetting: "PORT" })),
  logging: stdout
}
