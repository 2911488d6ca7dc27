import type { PolicyField, PolicyFieldError } from "@margin/core/pricing/PolicyCheck"
import { policyFieldRules, policyFields } from "@margin/core/pricing/PolicyCheck"
import { PricingObjective, type PricingPolicy, RoundingMode } from "@margin/core/pricing/PricingPolicy"
import { consolePage, escapeHtml, type PageContext } from "./ConsolePage.ts"
import { csrfField, noticeOf } from "./SettingsForm.ts"

/** The form's values as text: the policy's, or what was typed when it was refused. */
export type PolicyForm = Readonly<Record<PolicyField, string>>

/** The form's field names (the CLI's flag names, snake_case). */
export const policyInputNames: Readonly<Record<PolicyField, string>> = {
  targetMargin: "target_margin",
  minMargin: "min_margin",
  maxChangePct: "max_change",
  rounding: "rounding",
  threshold: "threshold",
  objective: "objective",
  defaultElasticity: "default_elasticity",
  maxPremiumOverCompetitor: "max_premium_over_competitor",
  minExpectedGain: "min_expected_gain"
}

const labels: Readonly<Record<PolicyField, string>> = {
  targetMargin: "Target margin",
  minMargin: "Minimum margin",
  maxChangePct: "Largest change of one run",
  rounding: "Rounding",
  threshold: "Smallest change recommended",
  objective: "Objective",
  defaultElasticity: "Default elasticity",
  maxPremiumOverCompetitor: "Largest premium over a competitor's price",
  minExpectedGain: "Smallest expected gain (profit objective)"
}

export const formOfPolicy = (policy: PricingPolicy): PolicyForm => ({
  targetMargin: String(policy.targetMargin),
  minMargin: String(policy.minMargin),
  maxChangePct: String(policy.maxChangePct),
  rounding: policy.rounding,
  threshold: String(policy.threshold),
  objective: policy.objective,
  defaultElasticity: String(policy.defaultElasticity),
  maxPremiumOverCompetitor: policy.maxPremiumOverCompetitor === null ? "none" : String(policy.maxPremiumOverCompetitor),
  minExpectedGain: String(policy.minExpectedGain)
})

const choices: Partial<Record<PolicyField, ReadonlyArray<string>>> = {
  rounding: RoundingMode.literals,
  objective: PricingObjective.literals
}

const field = (name: PolicyField, value: string, error: string | undefined) => {
  const id = `policy-${policyInputNames[name]}`
  const hint = `${id}-hint`
  const errorId = `${id}-error`
  const described = error === undefined ? hint : `${hint} ${errorId}`
  const options = choices[name]
  const control =
    options === undefined
      ? `<input id="${id}" name="${policyInputNames[name]}" inputmode="decimal" value="${escapeHtml(value)}" aria-describedby="${described}"${error === undefined ? "" : ' aria-invalid="true"'}>`
      : `<select id="${id}" name="${policyInputNames[name]}" aria-describedby="${described}">${options
          .map((option) => `<option value="${option}"${option === value ? " selected" : ""}>${option}</option>`)
          .join("")}</select>`
  return `<p><label for="${id}">${escapeHtml(labels[name])}</label><br>
${control}
<span class="hint" id="${hint}">${escapeHtml(policyFieldRules[name])}</span>${
    error === undefined ? "" : `<span class="field-error" id="${errorId}">${escapeHtml(error)}</span>`
  }</p>`
}

/** The workspace's pricing policy, every field, each refusal shown beside its field. */
export const policyPage = (input: {
  readonly context: PageContext
  readonly workspaceId: string
  readonly form: PolicyForm
  readonly errors: ReadonlyArray<PolicyFieldError>
  readonly notice: string | null
}) => {
  const action = `/app/w/${encodeURIComponent(input.workspaceId)}/settings/policy`
  const errorOf = (name: PolicyField) => input.errors.find((error) => error.field === name)?.message
  return consolePage({
    ...(input.errors.length === 0 ? {} : { status: 400 }),
    title: "Pricing policy",
    context: input.context,
    body: `${noticeOf(input.notice)}${
      input.errors.length === 0
        ? ""
        : `<p role="alert" class="error">The policy was not saved: ${input.errors.length === 1 ? "one field needs" : `${input.errors.length} fields need`} a change.</p>`
    }
<p>How the next runs recommend prices (docs: pricing). Fractions are plain ratios: 0.35 is 35 %.</p>
<form method="post" action="${escapeHtml(action)}" class="settings-form" novalidate>
${csrfField(input.context.csrf)}
${policyFields.map((name) => field(name, input.form[name], errorOf(name))).join("\n")}
<p><button type="submit">Save policy</button></p>
</form>`
  })
}
