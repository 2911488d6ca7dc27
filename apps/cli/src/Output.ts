import { Console, Effect } from "effect"
import { Flag, GlobalFlag } from "effect/cli"

/** What a command prints with --json: one object, plain data. */
export type Json = string | number | boolean | null | ReadonlyArray<Json> | { readonly [key: string]: Json }

/** `--json`, accepted by every command: print one JSON document on stdout instead of text (an array for lists). */
export const JsonOutput = GlobalFlag.Setting("json")({
  flag: Flag.Boolean("json").pipe(
    Flag.withDescription("Print the result as JSON on stdout: one object, or one array for a list"),
    Flag.withDefault(false)
  )
})

/** Prints a command's result: the object with --json, the human text otherwise. */
export const report = <A extends { readonly [key: string]: Json }>(
  result: A,
  text: (result: A) => string
): Effect.Effect<void, never, GlobalFlag.Setting.Identifier<"json">> =>
  Effect.flatMap(JsonOutput, (json) => Console.log(json ? JSON.stringify(result) : text(result)))
