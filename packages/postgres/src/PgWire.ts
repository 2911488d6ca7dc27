/**
 * Just enough of the PostgreSQL frontend protocol (v3) to share one PGlite backend between
 * connections: split the byte stream into messages, group them into frames that end where the
 * backend answers ReadyForQuery (Sync, Query) or flushes (Flush), and remember what a
 * connection must undo when it goes. Pure: no I/O.
 */

const sslRequest = 80877103
const gssEncRequest = 80877104
const protocol3 = 196608
// Larger than any message our clients send (sql-pg caps backend messages at 16 MiB by default).
const maxMessageLength = 1 << 30

const code = (letter: string): number => letter.charCodeAt(0)
const SYNC = code("S")
const QUERY = code("Q")
const FLUSH = code("H")
const TERMINATE = code("X")
const PARSE = code("P")
const CLOSE = code("C")

export type Step =
  /** Bytes to send straight back to the client (the answer to an SSL request). */
  | { readonly _tag: "Reply"; readonly bytes: Uint8Array }
  /**
   * Messages to run on the backend. `endsFrame`: the last one was Sync or Query, so once they
   * have run the backend waits for a new command, unless a transaction is open.
   */
  | { readonly _tag: "Execute"; readonly bytes: Uint8Array; readonly endsFrame: boolean }
  /** The client said goodbye, cancelled, or spoke something else than protocol 3. */
  | { readonly _tag: "Close" }

const readInt32 = (bytes: Uint8Array, offset: number): number =>
  new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getInt32(offset)

/** The parts joined into one array (the part itself when there is only one). */
export const concat = (parts: ReadonlyArray<Uint8Array>): Uint8Array => {
  if (parts.length === 1 && parts[0] !== undefined) return parts[0]
  const out = new Uint8Array(parts.reduce((length, part) => length + part.length, 0))
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}

const encoder = new TextEncoder()
const cString = (text: string): Uint8Array => concat([encoder.encode(text), new Uint8Array([0])])

/** A message: its type byte, then an int32 length that counts itself and the body. */
const message = (type: string, ...body: ReadonlyArray<Uint8Array>): Uint8Array => {
  const content = concat(body)
  const out = new Uint8Array(5 + content.length)
  out[0] = code(type)
  new DataView(out.buffer).setInt32(1, 4 + content.length)
  out.set(content, 5)
  return out
}

export const encodeSync = (): Uint8Array => message("S")
export const encodeQuery = (sql: string): Uint8Array => message("Q", cString(sql))
export const encodeParse = (name: string, sql: string): Uint8Array =>
  message("P", cString(name), cString(sql), new Uint8Array(2))
export const encodeCloseStatement = (name: string): Uint8Array =>
  message("C", new Uint8Array([code("S")]), cString(name))

/** The NUL-terminated string at `offset`. */
const readCString = (bytes: Uint8Array, offset: number): string => {
  const end = bytes.indexOf(0, offset)
  return new TextDecoder().decode(bytes.subarray(offset, end === -1 ? bytes.length : end))
}

/** The protocol state of one client connection. */
export class SessionState {
  private pending: Uint8Array = new Uint8Array(0)
  /** Chunks received after `pending`, joined only once the next message is whole (no quadratic copying). */
  private arrived: Array<Uint8Array> = []
  private arrivedLength = 0
  /** Bytes `pending` must reach before the next message can be whole. */
  private needed = 0
  private started = false
  /** Messages of a frame whose Sync has not arrived yet. */
  private frame: Array<Uint8Array> = []
  /** The last frame sent to the backend ended with Flush: the backend is inside an extended-protocol exchange. */
  private midFrame = false
  /** Named statements this connection prepared; they outlive it in the shared backend unless closed. */
  private readonly statements = new Set<string>()

  /** Records what ran: a frame cut at a Flush leaves the backend mid-exchange. */
  ran(step: { readonly endsFrame: boolean }): void {
    this.midFrame = !step.endsFrame
  }

  /** Takes newly received bytes; returns what to do, in order. */
  receive(chunks: ReadonlyArray<Uint8Array>): ReadonlyArray<Step> {
    for (const chunk of chunks) {
      this.arrived.push(chunk)
      this.arrivedLength += chunk.length
    }
    if (this.pending.length + this.arrivedLength < this.needed) return []
    this.pending = concat([this.pending, ...this.arrived])
    this.arrived = []
    this.arrivedLength = 0
    const steps: Array<Step> = []
    while (!this.started) {
      const packet = this.take(0)
      if (packet === "incomplete") return steps
      if (packet === "invalid" || packet.length < 8) return [...steps, { _tag: "Close" }]
      const request = readInt32(packet, 4)
      if (request === sslRequest || request === gssEncRequest) {
        steps.push({ _tag: "Reply", bytes: new Uint8Array([code("N")]) })
      } else if (request === protocol3) {
        this.started = true
        steps.push({ _tag: "Execute", bytes: packet, endsFrame: true })
      } else {
        // A CancelRequest (PGlite has no backend process to signal) or an unknown protocol.
        return [...steps, { _tag: "Close" }]
      }
    }
    const ready: Array<Uint8Array> = []
    let endsFrame = true
    while (true) {
      const next = this.take(1)
      if (next === "incomplete") break
      if (next === "invalid") return [...this.flush(steps, ready, endsFrame), { _tag: "Close" }]
      const type = next[0]
      // PGlite must never see Terminate: it would shut the shared backend down.
      if (type === TERMINATE) return [...this.flush(steps, ready, endsFrame), { _tag: "Close" }]
      this.track(next)
      this.frame.push(next)
      if (type === SYNC || type === QUERY || type === FLUSH) {
        ready.push(...this.frame)
        this.frame = []
        endsFrame = type !== FLUSH
      }
    }
    return this.flush(steps, ready, endsFrame)
  }

  /**
   * Messages that undo what this connection leaves behind, or undefined when there is nothing:
   * an exchange cut mid-frame is failed on purpose (a Parse error aborts it, Sync then rolls it
   * back), an open transaction is rolled back, prepared statements are closed.
   */
  cleanup(inTransaction: boolean): Uint8Array | undefined {
    const parts: Array<Uint8Array> = []
    if (this.midFrame) parts.push(encodeParse("", "pglite server: the client left mid-exchange"), encodeSync())
    if (this.midFrame || inTransaction) parts.push(encodeQuery("ROLLBACK"))
    if (this.statements.size > 0) {
      for (const name of this.statements) parts.push(encodeCloseStatement(name))
      parts.push(encodeSync())
    }
    return parts.length === 0 ? undefined : concat(parts)
  }

  private flush(steps: Array<Step>, ready: ReadonlyArray<Uint8Array>, endsFrame: boolean): Array<Step> {
    if (ready.length > 0) steps.push({ _tag: "Execute", bytes: concat(ready), endsFrame })
    return steps
  }

  /** Named statements prepared (Parse) and closed (Close 'S') by this connection. */
  private track(bytes: Uint8Array): void {
    if (bytes[0] === PARSE) {
      const name = readCString(bytes, 5)
      if (name !== "") this.statements.add(name)
    } else if (bytes[0] === CLOSE && bytes[5] === code("S")) {
      this.statements.delete(readCString(bytes, 6))
    }
  }

  /** Cuts one whole message off the pending bytes; its length field sits after `typeBytes` type bytes. */
  private take(typeBytes: 0 | 1): Uint8Array | "incomplete" | "invalid" {
    this.needed = typeBytes + 4
    if (this.pending.length < this.needed) return "incomplete"
    const length = readInt32(this.pending, typeBytes)
    if (length < 4 || length > maxMessageLength) return "invalid"
    const total = typeBytes + length
    this.needed = total
    if (this.pending.length < total) return "incomplete"
    this.needed = 0
    const whole = this.pending.subarray(0, total)
    this.pending = this.pending.subarray(total)
    return whole
  }
}
