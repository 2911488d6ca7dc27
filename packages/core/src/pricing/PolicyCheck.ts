import { Result, Schema } from "effect"
import { PricingPolicy } from "./PricingPolicy.ts"

/** A policy's fields, by name. */
export type PolicyField = keyof PricingPolicy

export const policyFields: ReadonlyArray<PolicyField> = [
  "targetMargin",
  "minMargin",
  "maxChangePct",
  "rounding",
  "threshold",
  "objective",
  "defaultElasticity",
  "maxPremiumOverCompetitor",
  "minExpectedGain"
]

/** One field refused, with what it must be. */
export interface PolicyFieldError {
  readonly field: PolicyField
  readonly message: string
}

/** What each field must be, in the words every door shows (the CLI's flags, the console's form). */
export const policyFieldRules: Readonly<Record<PolicyField, string>> = {
  targetMargin: "a fraction from 0 to below 1, e.g. 0.35",
  minMargin: "a fraction from 0 to below 1, e.g. 0.15",
  maxChangePct: "a fraction above 0, e.g. 0.10",
  rounding: "one of none, 99, 95, 49_99, whole",
  threshold: "a fraction from 0 to below 1, e.g. 0.01",
  objective: "profit or target_margin",
  defaultElasticity: "a number from -10 to below 0, e.g. -1.5",
  maxPremiumOverCompetitor: "a fraction of 0 or more, e.g. 0.05, or none",
  minExpectedGain: "a fraction from 0 to below 1, e.g. 0.01"
}

/**
 * The one check of a pricing policy, field by field, then across fields (the minimum margin not
 * above the target): the schema `PricingPolicy` decides, this only names the fields it refuses.
 * Every field's error is given at once, so a form can show each beside its field.
 */
export const checkPolicy = (
  candidate: Readonly<Record<PolicyField, unknown>>
): Result.Result<PricingPolicy, ReadonlyArray<PolicyFieldError>> => {
  const refused = policyFields.flatMap((field): Array<PolicyFieldError> => {
    const decoded = Schema.decodeUnknownResult(PricingPolicy.fields[field])(candidate[field])
    return Result.isFailure(decoded) ? [{ field, message: policyFieldRules[field] }] : []
  })
  if (refused.length > 0) return Result.fail(refused)
  const whole = Schema.decodeUnknownResult(PricingPolicy)(candidate)
  return Result.isSuccess(whole)
    ? Result.succeed(whole.success)
    : Result.fail([{ field: "minMargin", message: "must not be above the target margin" }])
}
