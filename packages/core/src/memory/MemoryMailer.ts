import { Context, Effect, Layer, Ref } from "effect"
import { Mailer, type MailMessage } from "../kernel/Mailer.ts"

/** What the memory Mailer has sent, oldest first: the outbox tests read. */
export class MemoryOutbox extends Context.Service<
  MemoryOutbox,
  { readonly sent: Effect.Effect<ReadonlyArray<MailMessage>> }
>()("margin/core/memory/MemoryOutbox") {}

/** A Mailer that keeps every message in memory (as the .eml transport would write them), and its outbox. */
export const layer: Layer.Layer<Mailer | MemoryOutbox> = Layer.effectContext(
  Effect.gen(function* () {
    const sent = yield* Ref.make<ReadonlyArray<MailMessage>>([])
    const mailer = Mailer.of({
      transport: "eml",
      send: (message) => Ref.update(sent, (messages) => [...messages, message])
    })
    return Context.make(Mailer, mailer).pipe(Context.add(MemoryOutbox, MemoryOutbox.of({ sent: Ref.get(sent) })))
  })
)
