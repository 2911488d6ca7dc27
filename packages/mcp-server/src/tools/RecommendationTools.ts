import {
  acceptRecommendation,
  approveRecommendation,
  dismissRecommendation,
  getRecommendation,
  listRecommendations,
  rejectRecommendation,
  undoPriceChange
} from "@margin/core/operations/OperationCatalogue"
import type { ApprovalResult } from "@margin/core/recommendations/Approval"
import type { RecommendationMutation } from "@margin/core/recommendations/Recommendations"
import {
  ListJson,
  listJson,
  PriceChangeUndoneJson,
  priceChangeUndoneJson,
  RecommendationJson,
  recommendationJson,
  WriteBackStateJson
} from "@margin/edge/wire"
import { Effect, Schema } from "effect"
import { Toolkit } from "effect/ai"
import { marginTool, toolHandlers, toolParameters } from "./MarginTool.ts"

/**
 * A command's answer. Unlike REST, whose repeat answers only `{ ok, idempotent }` (docs/contract.md, "States and repeats"),
 * an agent always gets the recommendation as it now is: one object shape per tool.
 */
export const RecommendationMutationJson = Schema.Struct({
  ok: Schema.Literal(true),
  /** true: the command had already taken effect and changed nothing now. */
  idempotent: Schema.Boolean,
  recommendation: RecommendationJson
}).annotate({ identifier: "RecommendationMutation" })

export const RecommendationApprovalJson = Schema.Struct({
  ok: Schema.Literal(true),
  idempotent: Schema.Boolean,
  recommendation: RecommendationJson,
  /** Where the store write-back stands; null on a repeat (the first approval answered it). */
  write_back: Schema.NullOr(WriteBackStateJson)
}).annotate({ identifier: "RecommendationApproval" })

const mutationJson = (mutation: RecommendationMutation) => ({
  ok: true as const,
  idempotent: mutation.idempotent,
  recommendation: recommendationJson(mutation.recommendation)
})

const approvalJson = (result: ApprovalResult) => ({
  ok: true as const,
  idempotent: result.idempotent,
  recommendation: recommendationJson(result.recommendation),
  write_back: result.writeBack
})

export const ListRecommendations = marginTool(listRecommendations, {
  parameters: toolParameters(listRecommendations),
  success: ListJson(RecommendationJson, "RecommendationList")
})

export const GetRecommendation = marginTool(getRecommendation, {
  parameters: toolParameters(getRecommendation),
  success: RecommendationJson
})

export const AcceptRecommendation = marginTool(acceptRecommendation, {
  parameters: toolParameters(acceptRecommendation),
  success: RecommendationMutationJson
})

export const DismissRecommendation = marginTool(dismissRecommendation, {
  parameters: toolParameters(dismissRecommendation),
  success: RecommendationMutationJson
})

export const ApproveRecommendation = marginTool(approveRecommendation, {
  parameters: toolParameters(approveRecommendation),
  success: RecommendationApprovalJson
})

export const RejectRecommendation = marginTool(rejectRecommendation, {
  parameters: toolParameters(rejectRecommendation),
  success: RecommendationMutationJson
})

export const UndoPriceChange = marginTool(undoPriceChange, {
  parameters: toolParameters(undoPriceChange),
  success: PriceChangeUndoneJson
})

export const RecommendationTools = Toolkit.make(
  ListRecommendations,
  GetRecommendation,
  AcceptRecommendation,
  DismissRecommendation,
  ApproveRecommendation,
  RejectRecommendation,
  UndoPriceChange
)

export const RecommendationToolsLayer = RecommendationTools.toLayer(
  Effect.gen(function* () {
    const handle = yield* toolHandlers
    return RecommendationTools.of({
      list_recommendations: handle(ListRecommendations, yield* listRecommendations.binding, (page) =>
        listJson(page, recommendationJson)
      ),
      // The REST detail's recommendation, without its write-back.
      get_recommendation: handle(GetRecommendation, yield* getRecommendation.binding, (detail) =>
        recommendationJson(detail.recommendation)
      ),
      accept_recommendation: handle(AcceptRecommendation, yield* acceptRecommendation.binding, mutationJson),
      dismiss_recommendation: handle(DismissRecommendation, yield* dismissRecommendation.binding, mutationJson),
      approve_recommendation: handle(ApproveRecommendation, yield* approveRecommendation.binding, approvalJson),
      reject_recommendation: handle(RejectRecommendation, yield* rejectRecommendation.binding, mutationJson),
      undo_price_change: handle(UndoPriceChange, yield* undoPriceChange.binding, priceChangeUndoneJson)
    })
  })
)
