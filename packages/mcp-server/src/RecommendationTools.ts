import { Approval, type ApprovalResult } from "@margin/core/Approval"
import { RecommendationId, RunId } from "@margin/core/Ids"
import {
  acceptRecommendation,
  approveRecommendation,
  dismissRecommendation,
  getRecommendation,
  listRecommendations,
  rejectRecommendation
} from "@margin/core/operations/OperationCatalogue"
import { RecommendationStatus } from "@margin/core/Recommendation"
import { type RecommendationMutation, Recommendations } from "@margin/core/RecommendationsService"
import { callerActor } from "@margin/edge/auth"
import {
  ListJson,
  listJson,
  pageRequest,
  RecommendationJson,
  RejectBody,
  recommendationJson,
  WriteBackStateJson
} from "@margin/edge/wire"
import { Effect, Schema } from "effect"
import { Toolkit } from "effect/ai"
import { marginTool, toolHandlers } from "./MarginTool.ts"
import { pageParams } from "./PageParams.ts"

const RecommendationParams = Schema.Struct({ recommendation_id: RecommendationId })

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
  parameters: Schema.Struct({
    ...pageParams,
    status: Schema.optionalKey(RecommendationStatus),
    run_id: Schema.optionalKey(RunId)
  }),
  success: ListJson(RecommendationJson, "RecommendationList")
})

export const GetRecommendation = marginTool(getRecommendation, {
  parameters: RecommendationParams,
  success: RecommendationJson
})

export const AcceptRecommendation = marginTool(acceptRecommendation, {
  parameters: RecommendationParams,
  success: RecommendationMutationJson
})

export const DismissRecommendation = marginTool(dismissRecommendation, {
  parameters: RecommendationParams,
  success: RecommendationMutationJson
})

export const ApproveRecommendation = marginTool(approveRecommendation, {
  parameters: RecommendationParams,
  success: RecommendationApprovalJson
})

export const RejectRecommendation = marginTool(rejectRecommendation, {
  parameters: Schema.Struct({ ...RecommendationParams.fields, ...RejectBody.fields }),
  success: RecommendationMutationJson
})

export const RecommendationTools = Toolkit.make(
  ListRecommendations,
  GetRecommendation,
  AcceptRecommendation,
  DismissRecommendation,
  ApproveRecommendation,
  RejectRecommendation
)

export const RecommendationToolsLayer = RecommendationTools.toLayer(
  Effect.gen(function* () {
    const recommendations = yield* Recommendations
    const approval = yield* Approval
    const handle = yield* toolHandlers
    return RecommendationTools.of({
      list_recommendations: handle(ListRecommendations, (params, caller) =>
        Effect.map(
          recommendations.list(
            caller.workspaceId,
            { status: params.status ?? null, runId: params.run_id ?? null },
            pageRequest(params)
          ),
          (page) => listJson(page, recommendationJson)
        )
      ),
      get_recommendation: handle(GetRecommendation, (params, caller) =>
        Effect.map(recommendations.get(caller.workspaceId, params.recommendation_id), recommendationJson)
      ),
      accept_recommendation: handle(AcceptRecommendation, (params, caller) =>
        Effect.map(
          recommendations.accept(caller.workspaceId, params.recommendation_id, callerActor(caller)),
          mutationJson
        )
      ),
      dismiss_recommendation: handle(DismissRecommendation, (params, caller) =>
        Effect.map(
          recommendations.dismiss(caller.workspaceId, params.recommendation_id, callerActor(caller)),
          mutationJson
        )
      ),
      // Approve and reject: the role rule is the use case's, as in REST.
      approve_recommendation: handle(ApproveRecommendation, (params, caller) =>
        Effect.map(
          approval.approve(caller.workspaceId, params.recommendation_id, callerActor(caller), caller.role),
          approvalJson
        )
      ),
      reject_recommendation: handle(RejectRecommendation, (params, caller) =>
        Effect.map(
          recommendations.reject(
            caller.workspaceId,
            params.recommendation_id,
            callerActor(caller),
            caller.role,
            params.reason
          ),
          mutationJson
        )
      )
    })
  })
)
