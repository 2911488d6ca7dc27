import { ResourceNotFound } from "@margin/core/kernel/Errors"
import { WorkspaceId } from "@margin/core/kernel/Ids"
import { toIso } from "@margin/core/kernel/Timestamp"
import { PricingObjective, type PricingPolicy, RoundingMode } from "@margin/core/pricing/PricingPolicy"
import { type Plan, plans } from "@margin/core/workspaces/Plan"
import { PricingPolicySettings } from "@margin/core/workspaces/PricingPolicySettings"
import type { LifecycleState, Workspace } from "@margin/core/workspaces/Workspace"
import { WorkspaceAdministration } from "@margin/core/workspaces/WorkspaceAdministration"
import { WorkspaceRepository } from "@margin/core/workspaces/WorkspaceRepository"
import { onDatabase } from "@margin/runtime/cli"
import { Effect, Option, Schema } from "effect"
import { Command, Flag } from "effect/cli"
import { details } from "./Details.ts"
import { idArgument, workspaceFlag } from "./Flags.ts"
import { afterFlag, cursorAt, limitFlag, listingOf, reportListing } from "./Listing.ts"
import { operatorActor } from "./OperatorActor.ts"
import { OperatorError } from "./OperatorError.ts"
import { report } from "./Output.ts"

const workspaceJson = (workspace: Workspace) => ({
  id: workspace.id,
  name: workspace.name,
  plan: workspace.plan,
  state: workspace.lifecycleState,
  trial_ends_at: workspace.trialEndsAt === null ? null : toIso(workspace.trialEndsAt),
  created_at: toIso(workspace.createdAt)
})

const policyJson = (policy: PricingPolicy) => ({
  target_margin: policy.targetMargin,
  min_margin: policy.minMargin,
  max_change: policy.maxChangePct,
  rounding: policy.rounding,
  threshold: policy.threshold,
  objective: policy.objective,
  default_elasticity: policy.defaultElasticity,
  max_premium_over_competitor: policy.maxPremiumOverCompetitor,
  min_expected_gain: policy.minExpectedGain
})

/** The workspace, or a failure naming the id. */
export const requireWorkspace = Effect.fn("requireWorkspace")(function* (id: WorkspaceId) {
  const found = yield* WorkspaceRepository.use((workspaces) => workspaces.get(id))
  if (Option.isNone(found)) return yield* new ResourceNotFound({ resource: "workspace", id })
  return found.value
})

/** Creates a workspace with the default pricing policy; in `trial` for core's `trialDays` days. */
export const createWorkspace = (name: string, plan: Plan, state: LifecycleState) =>
  WorkspaceAdministration.use((workspaces) => workspaces.create({ name, plan, state }, operatorActor))

const NonBlank = Schema.String.pipe(
  Schema.check(Schema.isPattern(/\S/, { message: "must not be blank" }), Schema.isMaxLength(200))
)

const create = Command.make(
  "create",
  {
    name: Flag.String("name").pipe(Flag.withDescription("The workspace's name"), Flag.withSchema(NonBlank)),
    plan: Flag.Literals("plan", plans).pipe(Flag.withDefault("free")),
    state: Flag.Literals("state", ["trial", "active", "suspended"]).pipe(Flag.withDefault("trial"))
  },
  Effect.fn(function* ({ name, plan, state }) {
    const workspace = yield* createWorkspace(name.trim(), plan, state)
    yield* report(
      workspaceJson(workspace),
      (w) =>
        `Created workspace ${w.id} "${w.name}" on plan ${w.plan}, ${w.state}${w.trial_ends_at === null ? "" : ` until ${w.trial_ends_at}`}`
    )
  })
).pipe(
  Command.withDescription("Create a workspace; prints its id"),
  Command.withExamples([
    {
      command: 'marginctl workspace create --name "Acme Goods" --plan pro --json',
      description: "A pro workspace, in trial for 14 days"
    },
    {
      command: "marginctl workspace create --name Acme --plan max --state active",
      description: "An active max workspace"
    }
  ])
)

const setPlan = Command.make(
  "set-plan",
  { workspace: workspaceFlag, plan: Flag.Literals("plan", plans) },
  Effect.fn(function* ({ workspace: id, plan }) {
    const previous = yield* WorkspaceAdministration.use((workspaces) => workspaces.setPlan(id, plan, operatorActor))
    yield* report(
      { id, plan, previous_plan: previous },
      (r) => `Workspace ${r.id}: plan ${r.previous_plan} -> ${r.plan}`
    )
  })
).pipe(
  Command.withDescription("Change a workspace's plan"),
  Command.withExamples([{ command: "marginctl workspace set-plan --workspace ws_01jh8x --plan max" }])
)

const ratio = (name: string, description: string) =>
  Flag.Finite(name).pipe(Flag.withDescription(description), Flag.optional)

const setPolicy = Command.make(
  "set-policy",
  {
    workspace: workspaceFlag,
    targetMargin: ratio("target-margin", "The margin recommendations aim for, e.g. 0.35"),
    minMargin: ratio("min-margin", "The margin no recommendation goes below, e.g. 0.15"),
    maxChange: ratio("max-change", "The largest move of one run as a fraction of the price, e.g. 0.10"),
    rounding: Flag.Literals("rounding", RoundingMode.literals).pipe(Flag.optional),
    threshold: ratio("threshold", "Moves smaller than this fraction are not recommended, e.g. 0.01"),
    objective: Flag.Literals("objective", PricingObjective.literals).pipe(
      Flag.withDescription("What recommendations maximise: profit (the default) or target_margin"),
      Flag.optional
    ),
    defaultElasticity: ratio(
      "default-elasticity",
      "The elasticity assumed while no item has a price history, below 0, e.g. -1.5"
    ),
    maxPremium: Flag.String("max-premium-over-competitor").pipe(
      Flag.withDescription("At most this fraction above an item's competitor price, e.g. 0.05; 'none' removes it"),
      Flag.optional
    ),
    minExpectedGain: ratio(
      "min-expected-gain",
      "Profit moves must gain at least this share of the item's monthly profit, e.g. 0.01"
    )
  },
  Effect.fn(function* (input) {
    const workspace = yield* requireWorkspace(input.workspace)
    const current = workspace.pricingPolicy
    const candidate = {
      targetMargin: Option.getOrElse(input.targetMargin, () => current.targetMargin),
      minMargin: Option.getOrElse(input.minMargin, () => current.minMargin),
      maxChangePct: Option.getOrElse(input.maxChange, () => current.maxChangePct),
      rounding: Option.getOrElse(input.rounding, () => current.rounding),
      threshold: Option.getOrElse(input.threshold, () => current.threshold),
      objective: Option.getOrElse(input.objective, () => current.objective),
      defaultElasticity: Option.getOrElse(input.defaultElasticity, () => current.defaultElasticity),
      // A number the schema then checks; "none" removes the limit.
      maxPremiumOverCompetitor: Option.match(input.maxPremium, {
        onNone: () => current.maxPremiumOverCompetitor,
        onSome: (value) => (value === "none" ? null : Number(value))
      }),
      minExpectedGain: Option.getOrElse(input.minExpectedGain, () => current.minExpectedGain)
    }
    // The one check of a policy (core's `checkPolicy`), the console's too.
    const policy = yield* PricingPolicySettings.use((settings) =>
      settings.set(workspace.id, { _tag: "Operator", actor: operatorActor }, candidate)
    ).pipe(
      Effect.catchTag("InvalidPolicy", (invalid) =>
        Effect.fail(
          new OperatorError({
            message: `invalid pricing policy: ${invalid.fields.map((f) => `${f.field}: ${f.message}`).join("; ")}`,
            kind: "usage"
          })
        )
      )
    )
    yield* report(
      { id: workspace.id, pricing_policy: policyJson(policy) },
      (r) =>
        `Workspace ${r.id}: target margin ${policy.targetMargin}, min margin ${policy.minMargin}, max change ${policy.maxChangePct}, rounding ${policy.rounding}, threshold ${policy.threshold}, objective ${policy.objective}, default elasticity ${policy.defaultElasticity}, max premium over competitor ${policy.maxPremiumOverCompetitor ?? "none"}, min expected gain ${policy.minExpectedGain}`
    )
  })
).pipe(
  Command.withDescription("Change a workspace's pricing policy (only the flags given)"),
  Command.withExamples([
    {
      command: "marginctl workspace set-policy --workspace ws_01jh8x --target-margin 0.35 --min-margin 0.15",
      description: "Only the flags given change"
    }
  ])
)

const list = Command.make(
  "list",
  { limit: limitFlag, after: afterFlag("ws", "workspace") },
  Effect.fn(function* ({ limit, after }) {
    const cursor = Option.isSome(after) ? cursorAt(yield* requireWorkspace(WorkspaceId.make(after.value))) : null
    const page = yield* WorkspaceRepository.use((workspaces) => workspaces.list({ limit, cursor }))
    yield* reportListing(
      listingOf(page, workspaceJson, (workspace) => workspace.id),
      [
        ["ID", (w) => w.id],
        ["NAME", (w) => w.name],
        ["PLAN", (w) => w.plan],
        ["STATE", (w) => w.state],
        ["TRIAL ENDS", (w) => w.trial_ends_at],
        ["CREATED", (w) => w.created_at]
      ],
      "There are no workspaces"
    )
  })
).pipe(
  Command.withDescription("List every workspace, newest first, a page at a time"),
  Command.withExamples([
    { command: "marginctl workspace list", description: "The 50 newest, as a table" },
    {
      command: "marginctl workspace list --limit 200 --after ws_01jh8x --json",
      description: "The next 200 after ws_01jh8x, as a JSON array"
    }
  ])
)

const show = Command.make(
  "show",
  { workspace: idArgument("ws", "workspace") },
  Effect.fn(function* ({ workspace: id }) {
    const workspace = yield* requireWorkspace(WorkspaceId.make(id))
    const policy = workspace.pricingPolicy
    yield* report({ ...workspaceJson(workspace), pricing_policy: policyJson(policy) }, (w) =>
      details([
        ["id", w.id],
        ["name", w.name],
        ["plan", w.plan],
        ["state", w.state],
        ["trial ends", w.trial_ends_at],
        ["created", w.created_at],
        ["target margin", policy.targetMargin],
        ["min margin", policy.minMargin],
        ["max change", policy.maxChangePct],
        ["rounding", policy.rounding],
        ["threshold", policy.threshold],
        ["objective", policy.objective],
        ["default elasticity", policy.defaultElasticity],
        ["max premium over competitor", policy.maxPremiumOverCompetitor],
        ["min expected gain", policy.minExpectedGain]
      ])
    )
  })
).pipe(
  Command.withDescription("Show a workspace and its pricing policy; exits 3 when there is no such workspace"),
  Command.withExamples([{ command: "marginctl workspace show ws_01jh8x --json" }])
)

export const workspaceCommand = Command.make("workspace").pipe(
  Command.withDescription("Create, list and show workspaces, change their plan and pricing policy"),
  Command.withExamples([
    { command: 'marginctl workspace create --name "Acme Goods" --plan pro' },
    { command: "marginctl workspace list" }
  ]),
  Command.withSubcommands([
    onDatabase(create),
    onDatabase(list),
    onDatabase(show),
    onDatabase(setPlan),
    onDatabase(setPolicy)
  ])
)
