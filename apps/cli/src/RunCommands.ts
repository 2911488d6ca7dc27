import { Tag } from "@margin/core/catalog/Tag"
import { ResourceNotFound } from "@margin/core/kernel/Errors"
import { RunId, type WorkspaceId } from "@margin/core/kernel/Ids"
import type { Run } from "@margin/core/runs/Run"
import { RunStatus } from "@margin/core/runs/Run"
import { RunRepository } from "@margin/core/runs/RunRepository"
import { Runs } from "@margin/core/runs/Runs"
import { runJson } from "@margin/edge/wire"
import { onDatabase } from "@margin/runtime/cli"
import { Clock, Console, Duration, Effect, Option, Schema, SchemaGetter } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { details } from "./Details.ts"
import { workspaceFlag } from "./Flags.ts"
import { afterFlag, cursorAt, limitFlag, listingOf, reportListing } from "./Listing.ts"
import { OperatorError } from "./OperatorError.ts"
import { JsonOutput, report } from "./Output.ts"
import { isFinished, progressLine, rateBetween, type Sighting } from "./RunProgress.ts"
import { requireWorkspace } from "./WorkspaceCommands.ts"

const marginctl = { _tag: "SystemActor", name: "marginctl" } as const

/** `a, b,c` -> ["a", "b", "c"], each checked as a catalog tag. */
const Tags = Schema.String.pipe(
  Schema.decodeTo(Schema.Array(Tag), {
    decode: SchemaGetter.transform((text: string) =>
      text
        .split(",")
        .map((tag) => tag.trim())
        .filter((tag) => tag !== "")
    ),
    encode: SchemaGetter.transform((tags: ReadonlyArray<string>) => tags.join(","))
  })
)

const triggerCommand = Command.make(
  "trigger",
  {
    workspace: workspaceFlag,
    tags: Flag.String("tags").pipe(
      Flag.withDescription("Comma-separated tags: only the items carrying any of them (default: the whole catalog)"),
      Flag.withSchema(Tags),
      Flag.withDefault([])
    )
  },
  Effect.fn(function* ({ workspace, tags }) {
    const run = yield* Runs.use((runs) => runs.trigger(workspace, tags, "cli", marginctl))
    yield* report(runJson(run), (r) =>
      [
        `Queued run ${r.id} over ${r.subset_tags.length === 0 ? "the whole catalog" : `the items tagged ${r.subset_tags.join(", ")}`} of ${workspace}.`,
        "A run worker executes it: the service (npm start) or a worker process (apps/worker).",
        `Follow it with: marginctl run watch ${r.id}`
      ].join("\n")
    )
  })
).pipe(
  Command.withDescription(
    "Queue an analysis run of a workspace, as POST /api/v1/runs does (the plan's caps apply); workers execute it"
  ),
  Command.withExamples([
    { command: "marginctl run trigger --workspace ws_01jh8x --json", description: "Every item" },
    {
      command: "marginctl run trigger --workspace ws_01jh8x --tags kitchen,garden",
      description: "Only the items carrying one of the tags"
    }
  ])
)

/** How often `watch` looks at the run. */
const pollInterval = Duration.millis(500)

const sight = (id: RunId) =>
  Effect.gen(function* () {
    const found = yield* RunRepository.use((runs) => runs.find(id))
    if (Option.isNone(found)) return yield* new OperatorError({ message: `there is no run ${id}`, kind: "not_found" })
    return { run: found.value, at: yield* Clock.currentTimeMillis } satisfies Sighting
  })

// On a terminal the line is redrawn in place; elsewhere (a log, a pipe) a line is printed when the run moves.
const draw = (line: string, last: boolean) =>
  Effect.sync(() => {
    if (process.stdout.isTTY) process.stdout.write(`\r${line}\x1b[K${last ? "\n" : ""}`)
    else process.stdout.write(`${line}\n`)
  })

const watchCommand = Command.make(
  "watch",
  { run: Argument.String("run-id").pipe(Argument.withSchema(RunId), Argument.withDescription("The run (run_…)")) },
  Effect.fn(function* ({ run: id }) {
    const json = yield* JsonOutput
    const first = yield* sight(id)
    let previous = first
    let shown = ""
    let current = first
    for (;;) {
      // The pace over the whole watch, so that it does not jump between two chunks.
      const line = progressLine(current.run, rateBetween(first, current))
      const moved =
        current.run.itemsAnalysed !== previous.run.itemsAnalysed || current.run.status !== previous.run.status
      if (!json && (shown === "" || moved || process.stdout.isTTY)) yield* draw(line, isFinished(current.run))
      shown = line
      if (isFinished(current.run)) break
      yield* Effect.sleep(pollInterval)
      previous = current
      current = yield* sight(id)
    }
    if (json) yield* Console.log(JSON.stringify(runJson(current.run)))
    if (current.run.status !== "succeeded") {
      return yield* new OperatorError({
        message: `run ${id} ${current.run.status}${current.run.error === null ? "" : `: ${current.run.error}`}`
      })
    }
  })
).pipe(
  Command.withDescription(
    "Follow a run until it ends, with a progress bar: items analysed, recommendations and alerts so far, pace and time left. Exits 1 unless the run succeeded"
  ),
  Command.withExamples([{ command: "marginctl run watch run_01jh92" }])
)

/** The run, of `workspace` when given, or a failure naming the id. */
const requireRun = Effect.fn("requireRun")(function* (id: RunId, workspace: WorkspaceId | null = null) {
  const found = yield* RunRepository.use((runs) => (workspace === null ? runs.find(id) : runs.get(workspace, id)))
  if (Option.isNone(found)) {
    return yield* workspace === null
      ? new ResourceNotFound({ resource: "run", id })
      : new OperatorError({ message: `no run ${id} in ${workspace}`, kind: "not_found" })
  }
  return found.value
})

/** A run as the API shows it, with its workspace (an operator's list or show spans workspaces). */
const operatorRunJson = (run: Run) => ({ ...runJson(run), workspace_id: run.workspaceId })

const listCommand = Command.make(
  "list",
  {
    workspace: workspaceFlag,
    status: Flag.Literals("status", RunStatus.literals).pipe(
      Flag.withDescription("Only the runs in this status"),
      Flag.optional
    ),
    limit: limitFlag,
    after: afterFlag("run", "run")
  },
  Effect.fn(function* ({ workspace, status, limit, after }) {
    yield* requireWorkspace(workspace)
    const cursor = Option.isSome(after) ? cursorAt(yield* requireRun(RunId.make(after.value), workspace)) : null
    const page = yield* RunRepository.use((runs) =>
      runs.list(workspace, { status: Option.getOrNull(status) }, { limit, cursor })
    )
    yield* reportListing(
      listingOf(page, operatorRunJson, (run) => run.id),
      [
        ["ID", (r) => r.id],
        ["STATUS", (r) => r.status],
        ["TRIGGER", (r) => r.trigger],
        ["TAGS", (r) => (r.subset_tags.length === 0 ? "all" : r.subset_tags.join(","))],
        ["ITEMS", (r) => `${r.items_analysed}/${r.items_total ?? "?"}`],
        ["RECS", (r) => r.recommendations_count],
        ["ALERTS", (r) => r.alerts_count],
        ["CREATED", (r) => r.created_at],
        ["FINISHED", (r) => r.finished_at]
      ],
      `${workspace} has no runs${Option.isSome(status) ? ` ${status.value}` : ""}`
    )
  })
).pipe(
  Command.withDescription("List a workspace's analysis runs, newest first, a page at a time"),
  Command.withExamples([
    { command: "marginctl run list --workspace ws_01jh8x" },
    {
      command: "marginctl run list --workspace ws_01jh8x --status failed --limit 10 --json",
      description: "The last 10 failed runs, as a JSON array"
    }
  ])
)

const showCommand = Command.make(
  "show",
  { run: Argument.String("run-id").pipe(Argument.withSchema(RunId), Argument.withDescription("The run (run_…)")) },
  Effect.fn(function* ({ run: id }) {
    yield* report(operatorRunJson(yield* requireRun(id)), (r) =>
      details([
        ["id", r.id],
        ["workspace", r.workspace_id],
        ["status", r.status],
        ["trigger", r.trigger],
        ["requested by", r.requested_by],
        ["tags", r.subset_tags.length === 0 ? "the whole catalog" : r.subset_tags.join(",")],
        ["items", `${r.items_analysed} of ${r.items_total ?? "?"} analysed`],
        ["recommendations", r.recommendations_count],
        ["alerts", r.alerts_count],
        ["error", r.error],
        ["created", r.created_at],
        ["started", r.started_at],
        ["finished", r.finished_at]
      ])
    )
  })
).pipe(
  Command.withDescription("Show a run, whatever its workspace; exits 3 when there is no such run"),
  Command.withExamples([{ command: "marginctl run show run_01jh92 --json" }])
)

export const runCommand = Command.make("run").pipe(
  Command.withDescription("Analysis runs: queue one, list them, show one, follow one"),
  Command.withExamples([
    { command: "marginctl run trigger --workspace ws_01jh8x" },
    { command: "marginctl run list --workspace ws_01jh8x" }
  ]),
  Command.withSubcommands([
    onDatabase(triggerCommand),
    onDatabase(listCommand),
    onDatabase(showCommand),
    onDatabase(watchCommand)
  ])
)
