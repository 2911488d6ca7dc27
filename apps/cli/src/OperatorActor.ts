/**
 * The actor of every audit event the CLI leaves: the use cases it calls record their changes, in
 * the transaction of the write, under this label.
 */
export const operatorActor = "system:marginctl"
