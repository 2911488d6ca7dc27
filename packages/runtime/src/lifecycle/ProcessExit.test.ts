import { assert, describe, it } from "@effect/vitest"
import { Exit } from "effect"
import { teardown } from "./ProcessExit.ts"

const codeOf = <E, A>(exit: Exit.Exit<A, E>): number => {
  let code = -1
  teardown(exit, (given) => {
    code = given
  })
  return code
}

describe("ProcessExit.teardown", () => {
  it("a stop by signal (interrupted only) exits 0; success 0; a failure or a defect 1", () => {
    assert.strictEqual(codeOf(Exit.interrupt(1)), 0)
    assert.strictEqual(codeOf(Exit.succeed("done")), 0)
    assert.strictEqual(codeOf(Exit.fail("cannot start")), 1)
    assert.strictEqual(codeOf(Exit.die(new Error("bug"))), 1)
  })
})
