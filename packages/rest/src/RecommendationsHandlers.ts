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
import type { RecommendationMutation, RecommendationRejected } from "@margin/core/recommendations/Recommendations"
import {
  IdempotentRepeatJson,
  idempotentRepeat,
  ListJson,
  listJson,
  priceChangeUndoneJson,
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
import { answer } from "./OperationEndpoint.ts"

// The hot endpoints answer their wire-form bodies as they are (EncodedJson: no second encoding pass).
const changedBody = encodedJson(Schema.Union([RecommendationChangedJson, IdempotentRepeatJson]))
const rejectedBody = encodedJson(RecommendationChangedJson)
const listBody = encodedJson(ListJson(RecommendationJson, "RecommendationList"))

const changed = (mutation: RecommendationMutation) =>
  changedBody(
    mutation.idempotent
      ? idempotentRepeat
      : { ok: true, idempotent: false, recommendation: recommendationJson(mutation.recommendation) }
  )

const rejected = (mutation: RecommendationRejected) =>
  rejectedBody({
    ok: true,
    idempotent: mutation.idempotent,
    recommendation: recommendationJson(mutation.recommendation)
  })

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
    const list = answer(yield* listRecommendations.binding, (page) => listBody(listJson(page, recommendationJson)))
    const get = answer(yield* getRecommendation.binding, recommendationDetailJson)
    const accept = answer(yield* acceptRecommendation.binding, changed)
    const dismiss = answer(yield* dismissRecommendation.binding, changed)
    const approve = answer(yield* approveRecommendation.binding, approved)
    const reject = answer(yield* rejectRecommendation.binding, rejected)
    const undo = answer(yield* undoPriceChange.binding, priceChangeUndoneJson)
    return HttpApiBuilder.group(Api, "recommendations", (handlers) =>
      handlers.handleAll({
        listRecommendations: ({ query }) => list(query),
        getRecommendation: ({ params }) => get(params),
        acceptRecommendation: ({ params }) => accept(params),
        dismissRecommendation: ({ params }) => dismiss(params),
        approveRecommendation: ({ params }) => approve(params),
        rejectRecommendation: ({ params, payload }) => reject({ ...params, ...payload }),
        undoPriceChange: ({ params }) => undo(params)
      })
    )
  }),
  ...apiMiddlewares
)
