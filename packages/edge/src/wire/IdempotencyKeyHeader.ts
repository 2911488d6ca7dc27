/** The `Idempotency-Key` header's value, declared once in core (the trigger operation's input). */
export { IdempotencyKey } from "@margin/core/kernel/IdempotencyKey"
