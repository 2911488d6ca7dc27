import { Cause, Exit, Runtime } from "effect"

/**
 * The exit code of a server process: 0 when SIGTERM / SIGINT stopped it (the main fiber was only
 * interrupted, after the graceful shutdown), otherwise Effect's defaults (1 for a failure). A
 * supervisor (systemd, Kubernetes) then reads a requested stop as a clean one, not as a crash
 * (Effect's default is 130).
 */
export const teardown: Runtime.Teardown = (exit, onExit) =>
  Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit)
