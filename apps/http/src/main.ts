import { Launch, RestProcess } from "@margin/runtime"

/**
 * The REST server, and the MCP front door beside it on the same router, and the background loops
 * (`npm start`, `npm run serve`): PORT (8787) on HOST (127.0.0.1), the database of DATABASE_URL or
 * DATA_DIR, migrated at start. Its wiring is RestProcess of @margin/runtime.
 */
Launch.run(RestProcess.definition)
