/**
 * Request bodies and the text rule of what may reach a query: declared once, with the operations'
 * input, in core (`@margin/core/operations/OperationBodies`, `OperationInput`); named here too
 * because the wire is where clients look for them.
 */
export { RejectBody, SnoozeBody, TriggerRunBody, UtcTimestamp } from "@margin/core/operations/OperationBodies"
export { isWithoutNul, nulMessage } from "@margin/core/operations/OperationInput"
