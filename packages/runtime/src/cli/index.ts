/** @margin/runtime/cli: what `marginctl`'s commands run on: the database, migrated, every port on it, the e-mail settings. */

export { restListenConfig } from "../config/ListenConfig.ts"
export * as CliMail from "./CliMail.ts"
export * as CliServices from "./CliServices.ts"
export { onBareDatabase, onDatabase } from "./OnDatabase.ts"
