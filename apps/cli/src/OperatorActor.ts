import type { Actor } from "@margin/core/access/Actor"

/**
 * The actor of every audit event the CLI leaves: the use cases it calls record their changes, in
 * the transaction of the write, under this label.
 */
export const operatorActor = "system:marginctl"

/** The same actor as the use cases that take an `Actor` receive it (its label is `operatorActor`). */
export const operator: Actor = { _tag: "SystemActor", name: "marginctl" }
