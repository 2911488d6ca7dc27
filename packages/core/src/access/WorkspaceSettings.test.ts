import * as MemoryAdapters from "../memory/MemoryAdapters.ts"
import { settingsUseCases, workspaceSettingsSuite } from "../testing/WorkspaceSettingsSuite.ts"

workspaceSettingsSuite("memory", settingsUseCases(MemoryAdapters.layer))
