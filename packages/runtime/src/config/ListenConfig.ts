import { Config } from "effect"

/** Where a server listens. */
export interface ListenConfig {
  readonly port: number
  readonly host: string
}

/** PORT (8787) and HOST (127.0.0.1): the REST server's address; read alone by `npm start`'s port check. */
export const restListenConfig: Config.Config<ListenConfig> = Config.all({
  port: Config.Port("PORT").pipe(Config.withDefault(8787)),
  host: Config.NonEmptyString("HOST").pipe(Config.withDefault("127.0.0.1"))
})
