/**
 * @margin/runtime/lifecycle: the parts of a process's life a benchmark's own server uses too: V8
 * tuned for serving, the JSON-lines logger; and `npm start`'s port check (without loading the
 * service's wiring).
 */
export { check, restPortCheck } from "./Check.ts"
export { stdoutJsonLogger } from "./JsonLinesLogger.ts"
export { tuneV8ForServing } from "./V8Tuning.ts"
