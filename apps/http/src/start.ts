import { Launch, RestProcess } from "@margin/runtime"
import { demoOwnerEmail, demoSeed } from "./DemoSeed.ts"

/**
 * `npm start` (through bin/run.js): the REST server of main.ts, which seeds the demo workspace
 * (`marginctl demo`) while it opens its database and before it serves: PORT checked first, the
 * embedded PostgreSQL created and started once, the demo's tokens printed, then served.
 */
Launch.run(RestProcess.definitionWith({ beforeServing: demoSeed, consoleSignInFor: demoOwnerEmail }))
