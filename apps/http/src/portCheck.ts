import { Launch, RestProcess } from "@margin/runtime"

/**
 * `npm start`'s first step: the REST server's settings are valid and PORT is free on HOST, before
 * the demo is seeded and its tokens printed (a taken port: one line, exit 1, nothing seeded).
 */
Launch.check(RestProcess.portCheck)
