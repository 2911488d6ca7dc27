import { Approval, type ApprovalResult } from "@margin/core/Approval"
import type { RecommendationMutation } from "@margin/core/RecommendationsService"
import { Recommendations } from "@margin/core/RecommendationsService"
import { Caller, callerActor } from "@margin/edge/auth"
import {
  IdempotentRepeatJson,
  idempotentRepeat,
  ListJson,
  listJson,
  pageRequest,
  RecommendationChangedJson,
  RecommendationJson,
  recommendationDetailJson,
  recommendationJson
} from "@margin/edge/wire"
import { Effect, Schema } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api, apiMiddlewares } from "./Api.ts"
import { encodedJson } from "./EncodedJson.ts"
import { isolatedGroup } from "./IsolatedGroup.ts"

// The hot endpoints answer their wire-form bodies as they are (EncodedJson: no second encoding pass).
const changedBody = encodedJson(Schema.Union([RecommendationChangedJson, IdempotentRepeatJson]))
const listBody = encodedJson(ListJson(RecommendationJson, "RecommendationList"))

const changed = (mutation: RecommendationMutation) =>
  changedBody(
    mutation.idempotent
      ? idempotentRepeat
      : { ok: true, idempotent: false, recommendation: recommendationJson(mutation.recommendation) }
  )

const approved = (result: ApprovalResult) =>
  result.idempotent || result.writeBack === null
    ? idempotentRepeat
    : {
        ok: true as const,
        idempotent: false as const,
        recommendation: recommendationJson(result.recommendation),
        write_back: result.writeBack
      }

export const RecommendationsHandlers = isolatedGroup(
  Effect.gen(function* () {
    const recommendations = yield* Recommendations
    const approval = yield* Approval
    return HttpApiBuilder.group(Api, "recommendations", (handlers) =>
      handlers.handleAll({
        listRecommendations: ({ query }) =>
          Caller.use((caller) =>
            recommendations.list(
              caller.workspaceId,
              { status: query.status ?? null, runId: query.run_id ?? null },
              pageRequest(query)
            )
          ).pipe(Effect.map((page) => listBody(listJson(page, recommendationJson)))),
        getRecommendation: ({ params }) =>
          Caller.use((caller) => recommendations.getDetail(caller.workspaceId, params.recommendation_id)).pipe(
            Effect.map(recommendationDetailJson)
          ),
        acceptRecommendation: ({ params }) =>
          Caller.use((caller) =>
            recommendations.accept(caller.workspaceId, params.recommendation_id, callerActor(caller))
          ).pipe(Effect.map(changed)),
        dismissRecommendation: ({ params }) =>
          Caller.use((caller) =>
            recommendations.dismiss(caller.workspaceId, params.recommendation_id, callerActor(caller))
          ).pipe(Effect.map(changed)),
        // Approve and reject: the role rule is the use case's (after the body is validated).
        approveRecommendation: ({ params }) =>
          Caller.use((caller) =>
            approval.approve(caller.workspaceId, params.recommendation_id, callerActor(caller), caller.role)
          ).pipe(Effect.map(approved)),
        rejectRecommendation: ({ params, payload }) =>
          Caller.use((caller) =>
            recommendations.reject(
              caller.workspaceId,
              params.recommendation_id,
              callerActor(caller),
              caller.role,
              payload.reason
            )
          ).pipe(Effect.map(changed))
      })
    )
  }),
  ...apiMiddlewares
)
