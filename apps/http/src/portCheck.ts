import { check, restPortCheck } from "@margin/runtime/lifecycle"

/**
 * `npm start`'s first step: PORT is free on HOST, before the demo is seeded and its tokens printed
 * (a taken port: one line, exit 1, nothing seeded). Loads @margin/runtime/lifecycle only: fast.
 */
check(restPortCheck)
