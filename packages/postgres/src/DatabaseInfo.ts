import { Context } from "effect"

/** Which database a process is connected to, for logs and for `marginctl` to say so. Never holds a password. */
export class DatabaseInfo extends Context.Service<
  DatabaseInfo,
  {
    readonly kind: "postgres" | "embedded"
    /** Embedded only: whether this process started the server or joined one that ran. */
    readonly role: "started" | "joined" | null
    /** For people: `PostgreSQL at db.example.com:5432/margin`, `embedded PostgreSQL in /srv/.data`. */
    readonly description: string
  }
>()("margin/postgres/DatabaseInfo") {}
