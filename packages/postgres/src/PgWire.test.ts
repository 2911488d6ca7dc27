import { assert, describe, it } from "@effect/vitest"
import * as PgWire from "./PgWire.ts"

const int32 = (value: number): Uint8Array => {
  const bytes = new Uint8Array(4)
  new DataView(bytes.buffer).setInt32(0, value)
  return bytes
}
const join = (...parts: ReadonlyArray<Uint8Array>): Uint8Array => PgWire.concat(parts)
const startupPacket = (code: number) => join(int32(8), int32(code))
const startup = join(int32(9), int32(196608), new Uint8Array([0]))
const bind = join(new Uint8Array([0x42]), int32(4))
const execute = join(new Uint8Array([0x45]), int32(4))
const flush = join(new Uint8Array([0x48]), int32(4))
const terminate = join(new Uint8Array([0x58]), int32(4))

const started = () => {
  const state = new PgWire.SessionState()
  state.receive([startup])
  return state
}

describe("PgWire.SessionState", () => {
  it("answers an SSL request with N and runs the startup packet", () => {
    const state = new PgWire.SessionState()
    const steps = state.receive([startupPacket(80877103), startup])
    assert.deepStrictEqual(steps, [
      { _tag: "Reply", bytes: new Uint8Array([0x4e]) },
      { _tag: "Execute", bytes: startup, endsFrame: true }
    ])
  })

  it("closes on a cancel request or an unknown protocol", () => {
    assert.deepStrictEqual(new PgWire.SessionState().receive([startupPacket(80877102)]), [{ _tag: "Close" }])
    assert.deepStrictEqual(new PgWire.SessionState().receive([startupPacket(12345)]), [{ _tag: "Close" }])
  })

  it("holds a frame back until its Sync arrives, whatever the chunking", () => {
    const state = started()
    const parse = PgWire.encodeParse("", "SELECT 1")
    const sync = PgWire.encodeSync()
    const frame = join(parse, bind, execute, sync)
    assert.deepStrictEqual(state.receive([frame.subarray(0, 3)]), [])
    assert.deepStrictEqual(state.receive([frame.subarray(3, parse.length + 2)]), [])
    assert.deepStrictEqual(state.receive([frame.subarray(parse.length + 2)]), [
      { _tag: "Execute", bytes: frame, endsFrame: true }
    ])
  })

  it("runs pipelined frames together and marks a Flush as mid-frame", () => {
    const state = started()
    const one = join(PgWire.encodeParse("", "SELECT 1"), PgWire.encodeSync())
    const two = join(PgWire.encodeParse("", "SELECT 2"), flush)
    assert.deepStrictEqual(state.receive([one, two]), [{ _tag: "Execute", bytes: join(one, two), endsFrame: false }])
  })

  it("never passes Terminate on, and closes", () => {
    const state = started()
    const query = PgWire.encodeQuery("SELECT 1")
    assert.deepStrictEqual(state.receive([query, terminate]), [
      { _tag: "Execute", bytes: query, endsFrame: true },
      { _tag: "Close" }
    ])
  })

  it("closes on a message length the protocol cannot have", () => {
    const state = started()
    assert.deepStrictEqual(state.receive([join(new Uint8Array([0x51]), int32(2))]), [{ _tag: "Close" }])
  })

  it("has nothing to clean up after plain queries", () => {
    const state = started()
    state.receive([PgWire.encodeQuery("SELECT 1")])
    assert.isUndefined(state.cleanup(false))
  })

  it("closes the statements the connection prepared and did not close", () => {
    const state = started()
    state.receive([
      join(PgWire.encodeParse("s1", "SELECT 1"), PgWire.encodeParse("s2", "SELECT 2"), PgWire.encodeSync())
    ])
    state.receive([join(PgWire.encodeCloseStatement("s1"), PgWire.encodeSync())])
    assert.deepStrictEqual(state.cleanup(false), join(PgWire.encodeCloseStatement("s2"), PgWire.encodeSync()))
  })

  it("rolls back an open transaction, and fails an exchange cut mid-frame first", () => {
    const inTransaction = started()
    assert.deepStrictEqual(inTransaction.cleanup(true), PgWire.encodeQuery("ROLLBACK"))
    const midFrame = started()
    const [step] = midFrame.receive([join(PgWire.encodeParse("", "SELECT 1"), flush)])
    assert.isDefined(step)
    if (step?._tag === "Execute") midFrame.ran(step)
    const cleanup = midFrame.cleanup(false)
    assert.isDefined(cleanup)
    assert.deepStrictEqual(
      cleanup?.subarray(cleanup.length - PgWire.encodeQuery("ROLLBACK").length),
      PgWire.encodeQuery("ROLLBACK")
    )
    assert.strictEqual(cleanup?.[0], 0x50)
  })
})
