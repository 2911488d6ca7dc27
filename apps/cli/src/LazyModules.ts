import { Effect } from "effect"

// Modules a command needs only when it runs, imported then: `--help`, `--version` and a mistyped
// flag never load the PostgreSQL client or the mailer (scripts/build-cli.ts bundles them apart).
export const postgres = Effect.promise(() => import("@margin/postgres"))
export const mail = Effect.promise(() => import("@margin/mail"))
