import { Context } from "effect"

/** Which database a process is connected to, for logs and for `marginctl` to say so. Never holds a password. */
export class DatabaseInfo extends Context.Service<
  DatabaseInfo,
  {
    readonly kind: "postgres" | "embedded"
    /** Embedded only: whether this process opened the files or reaches the process that did. */
    readonly role: "owner" | "attached" | null
    /** For people: `PostgreSQL at db.example.com:5432/margin`, `embedded database in /srv/.data (served by process 4711)`. */
    readonly description: string
  }
>()("margin/postgres/DatabaseInfo") {}
