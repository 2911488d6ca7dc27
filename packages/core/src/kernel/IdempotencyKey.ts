import { Schema } from "effect"

/**
 * An idempotency key (REST's `Idempotency-Key` header of POST /api/v1/runs, the MCP tool
 * trigger_run's `idempotency_key`): 1 to 255 visible ASCII characters, a UUID for instance;
 * compared exactly, per workspace, for 24 hours.
 */
export const IdempotencyKey = Schema.String.pipe(
  Schema.check(
    Schema.isPattern(/^[\x21-\x7e]{1,255}$/, {
      message: "an idempotency key is 1 to 255 visible ASCII characters (a UUID, for instance)"
    })
  )
).annotate({
  description:
    "Makes a trigger safe to repeat: the same key with the same subset_tags within 24 hours answers the run the first trigger queued, and queues nothing; with other subset_tags it is refused (validation_error). 1 to 255 visible ASCII characters (a UUID, for instance), per workspace."
})
