import { assert, describe, it } from "@effect/vitest"
import {
  InvalidInput,
  PlanLimitExceeded,
  RepositoryError,
  ResourceNotFound,
  TransitionConflict
} from "@margin/core/kernel/Errors"
import { Runtime } from "effect"
import { CliError } from "effect/cli"
import { CommandFailed, exitStatus, failureKind } from "./FailureKind.ts"
import { OperatorError } from "./OperatorError.ts"

describe("FailureKind", () => {
  it("each failure has its kind", () => {
    const table: ReadonlyArray<[unknown, string]> = [
      [new CliError.UnknownSubcommand({ subcommand: "frobnicate", parent: ["marginctl"], suggestions: [] }), "usage"],
      [new ResourceNotFound({ resource: "workspace", id: "ws_x" }), "not_found"],
      [new TransitionConflict({ resource: "run", id: "run_x", status: "running", reason: "busy" }), "conflict"],
      [new RepositoryError({ operation: "get", message: "connection lost" }), "unavailable"],
      [new PlanLimitExceeded({ limit: "runs_per_month", used: 10, allowed: 10 }), "refused"],
      [new InvalidInput({ path: "x", message: "bad" }), "refused"],
      [new OperatorError({ message: "no" }), "refused"],
      [new OperatorError({ message: "taken", kind: "conflict" }), "conflict"],
      [{ _tag: "DatabaseUnavailable", message: "down" }, "unavailable"],
      [{ _tag: "DatabaseConfigError", message: "mysql://" }, "usage"],
      [{ _tag: "MailUnavailable", message: "smtp down" }, "unavailable"],
      [new Error("plain"), "refused"]
    ]
    for (const [error, kind] of table) assert.strictEqual(failureKind(error), kind, String(error))
  })

  it("the exit status is the kind's, read by the runtime's teardown", () => {
    assert.deepStrictEqual(exitStatus, { refused: 1, usage: 2, not_found: 3, conflict: 4, unavailable: 5 })
    const kinds = ["refused", "usage", "not_found", "conflict", "unavailable"] as const
    for (const kind of kinds) {
      assert.strictEqual(Runtime.getErrorExitCode(new CommandFailed({ kind })), exitStatus[kind])
    }
  })
})
