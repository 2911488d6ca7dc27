import { Launch, RestProcess } from "@margin/runtime"
import { demoSeed } from "./DemoSeed.ts"

/**
 * `npm start` (through bin/run.js): the REST server of main.ts, which seeds the demo workspace
 * (`marginctl demo`) once its database is up and before it serves, in one start: PORT checked
 * first, the embedded PostgreSQL created and started once, the demo's tokens printed, then served.
 */
Launch.run(RestProcess.definitionWith({ beforeServing: demoSeed }))
