import { assert, describe, it } from "@effect/vitest"
import { marginctl } from "./Cli.ts"

/** What the test reads of a command. */
interface CommandNode {
  readonly name: string
  readonly description: string | undefined
  readonly examples: ReadonlyArray<{ readonly command: string }>
  readonly subcommands: ReadonlyArray<{ readonly commands: ReadonlyArray<CommandNode> }>
}

/** Every command of the tree with its path: `marginctl workspace create`. */
const commandsOf = (command: CommandNode, path: ReadonlyArray<string> = []): ReadonlyArray<[string, CommandNode]> => {
  const here = [...path, command.name]
  return [
    [here.join(" "), command],
    ...command.subcommands.flatMap((group) => group.commands.flatMap((sub) => commandsOf(sub, here)))
  ]
}

describe("marginctl's command tree", () => {
  it("every command has a description and examples for its --help, each example a marginctl command line", () => {
    const commands = commandsOf(marginctl)
    assert.isAbove(commands.length, 30)
    for (const [path, command] of commands) {
      assert.isAbove(command.description?.length ?? 0, 0, `${path} has no description`)
      assert.isAbove(command.examples.length, 0, `${path} has no example`)
      for (const example of command.examples) assert.match(example.command, /^marginctl /, path)
    }
  })
})
