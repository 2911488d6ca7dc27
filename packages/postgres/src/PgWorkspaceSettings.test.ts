import { settingsUseCases, workspaceSettingsSuite } from "@margin/core/testing/WorkspaceSettingsSuite"
import * as PgTestAdapters from "./testing/PgTestAdapters.ts"

// The settings' use cases (members, connected apps, policy, e-mail confirmation, API keys) on the database.
workspaceSettingsSuite(PgTestAdapters.backend, settingsUseCases(PgTestAdapters.layer))
