import { Effect, type Scope } from "effect"
import { SMTPServer, type SMTPServerAddress } from "smtp-server"

/** A message the test server accepted: its envelope and its raw RFC 5322 text. */
export interface ReceivedMail {
  readonly from: string
  readonly to: ReadonlyArray<string>
  readonly raw: string
}

export interface TestSmtpServer {
  /** `smtp://[user:pass@]127.0.0.1:<port>`, for SMTP_URL. */
  readonly url: string
  /** What it accepted so far, in order. */
  readonly received: () => ReadonlyArray<ReceivedMail>
  /** From now on, RCPT TO this address answers 550 (and `accept` undoes it). */
  readonly refuse: (address: string) => void
  readonly accept: (address: string) => void
}

const addressOf = (address: SMTPServerAddress | false): string => (address === false ? "" : address.address)

/**
 * A real SMTP server on 127.0.0.1 and an ephemeral port, for tests (smtp-server, the server side
 * of nodemailer). No TLS; with `credentials` it requires that login (AUTH over plain text, which
 * only a test allows). Closed with the scope.
 */
export const make = (
  credentials?: {
    readonly user: string
    readonly pass: string
  },
  options: {
    /** How long it takes to accept each message (a slow server: sends overlap in time). */
    readonly acceptAfterMs?: number
  } = {}
): Effect.Effect<TestSmtpServer, never, Scope.Scope> =>
  Effect.gen(function* () {
    const received: Array<ReceivedMail> = []
    const refused = new Set<string>()
    const server = new SMTPServer({
      disabledCommands: credentials === undefined ? ["STARTTLS", "AUTH"] : ["STARTTLS"],
      authOptional: credentials === undefined,
      allowInsecureAuth: true,
      logger: false,
      onAuth: (auth, _session, callback) =>
        credentials !== undefined && auth.username === credentials.user && auth.password === credentials.pass
          ? callback(null, { user: auth.username })
          : callback(new Error("535 authentication failed")),
      onRcptTo: (address, _session, callback) =>
        refused.has(address.address.toLowerCase())
          ? callback(Object.assign(new Error("mailbox unavailable"), { responseCode: 550 }))
          : callback(),
      onData: (stream, session, callback) => {
        const chunks: Array<Buffer> = []
        stream.on("data", (chunk: Buffer) => chunks.push(chunk))
        stream.on("end", () => {
          received.push({
            from: addressOf(session.envelope.mailFrom),
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            raw: Buffer.concat(chunks).toString("utf8")
          })
          if (options.acceptAfterMs === undefined) callback()
          else setTimeout(callback, options.acceptAfterMs)
        })
      }
    })
    const port = yield* Effect.acquireRelease(
      Effect.callback<number>((resume) => {
        server.listen(0, "127.0.0.1", () => {
          const address = server.server.address()
          resume(Effect.succeed(typeof address === "object" && address !== null ? address.port : 0))
        })
      }),
      () => Effect.callback<void>((resume) => server.close(() => resume(Effect.void)))
    )
    const login = credentials === undefined ? "" : `${credentials.user}:${credentials.pass}@`
    return {
      url: `smtp://${login}127.0.0.1:${port}`,
      received: () => [...received],
      refuse: (address) => refused.add(address.toLowerCase()),
      accept: (address) => refused.delete(address.toLowerCase())
    }
  })

/** A header of a raw message (the first one of that name, unfolded). */
export const headerOf = (raw: string, name: string): string | undefined => {
  const head = raw.split(/\r?\n\r?\n/, 1)[0] ?? ""
  const unfolded = head.replace(/\r?\n[ \t]+/g, " ")
  const line = unfolded.split(/\r?\n/).find((candidate) => candidate.toLowerCase().startsWith(`${name.toLowerCase()}:`))
  return line?.slice(name.length + 1).trim()
}

/** The body of a single-part text message, quoted-printable decoded when it is encoded so. */
export const textOf = (raw: string): string => {
  const separator = /\r?\n\r?\n/.exec(raw)
  const body = separator === null ? "" : raw.slice(separator.index + separator[0].length)
  const quoted = /quoted-printable/i.test(headerOf(raw, "Content-Transfer-Encoding") ?? "")
  const decoded = quoted
    ? Buffer.from(
        body
          .replace(/=\r?\n/g, "")
          .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
        "latin1"
      ).toString("utf8")
    : body
  return decoded.replace(/\r\n/g, "\n")
}
