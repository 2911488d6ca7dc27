import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js"
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js"
import { Context, Effect, Layer, Queue, Sink, Stdio, Stream } from "effect"

/**
 * An SDK client transport wired to an in-process `Stdio`: what the client sends becomes the
 * server's stdin, one JSON line per message, and the server's stdout lines come back as messages.
 */
class PipeTransport implements Transport {
  onclose?: (() => void) | undefined
  onerror?: ((error: Error) => void) | undefined
  onmessage?: ((message: JSONRPCMessage) => void) | undefined
  private buffered = ""
  private readonly write: (line: string) => void

  constructor(write: (line: string) => void) {
    this.write = write
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    this.write(`${JSON.stringify(message)}\n`)
  }

  async close(): Promise<void> {
    this.onclose?.()
  }

  receive(chunk: string): void {
    this.buffered += chunk
    let end = this.buffered.indexOf("\n")
    while (end !== -1) {
      const line = this.buffered.slice(0, end).trim()
      this.buffered = this.buffered.slice(end + 1)
      if (line !== "") this.onmessage?.(JSON.parse(line))
      end = this.buffered.indexOf("\n")
    }
  }
}

export class StdioPipe extends Context.Service<StdioPipe, { readonly transport: Transport }>()(
  "margin/mcp/testing/StdioPipe"
) {
  /** The pipe and the `Stdio` of the server at its other end. */
  static readonly layer: Layer.Layer<StdioPipe | Stdio.Stdio> = Layer.effectContext(
    Effect.gen(function* () {
      const stdin = yield* Queue.unbounded<Uint8Array>()
      const encoder = new TextEncoder()
      const decoder = new TextDecoder()
      const transport = new PipeTransport((line) => {
        Queue.offerUnsafe(stdin, encoder.encode(line))
      })
      const stdio = Stdio.make({
        args: Effect.succeed([]),
        stdin: Stream.fromQueue(stdin),
        stdout: () =>
          Sink.forEachArray((chunks: ReadonlyArray<string | Uint8Array>) =>
            Effect.sync(() => {
              for (const chunk of chunks) transport.receive(typeof chunk === "string" ? chunk : decoder.decode(chunk))
            })
          ),
        stderr: () => Sink.drain
      })
      return Context.make(StdioPipe, { transport }).pipe(Context.add(Stdio.Stdio, stdio))
    })
  )
}
