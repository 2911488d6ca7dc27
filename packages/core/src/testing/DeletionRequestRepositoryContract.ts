import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import type { UserRepository } from "../access/UserRepository.ts"
import type { IdGenerator } from "../kernel/IdGenerator.ts"
import { DeletionRequestId } from "../kernel/Ids.ts"
import { DeletionRequestRepository } from "../workspaces/DeletionRequestRepository.ts"
import { aDeletionRequest } from "./Fixtures.ts"
import { freshId, seedUser } from "./Seed.ts"

export type DeletionRequestContractServices = DeletionRequestRepository | UserRepository | IdGenerator

/** The DeletionRequestRepository port's contract: every adapter must pass it. */
export const deletionRequestRepositoryContract = <E>(
  name: string,
  services: Layer.Layer<DeletionRequestContractServices, E>
) =>
  layer(services)(`DeletionRequestRepository contract (${name})`, (it) => {
    it.effect("a request is active while pending or blocked, for its own user only", () =>
      Effect.gen(function* () {
        const requests = yield* DeletionRequestRepository
        const user = yield* seedUser()
        const bystander = yield* seedUser()
        assert.isTrue(Option.isNone(yield* requests.activeFor(user.id)))
        assert.isFalse(yield* requests.setState(user.id, "blocked"), "nothing to move")
        const request = aDeletionRequest({
          id: yield* freshId("deletionRequest", DeletionRequestId.make),
          userId: user.id
        })
        yield* requests.insert(request)
        assert.deepStrictEqual(yield* requests.activeFor(user.id), Option.some(request))
        assert.isTrue(Option.isNone(yield* requests.activeFor(bystander.id)))
        assert.isTrue(yield* requests.setState(user.id, "blocked"))
        assert.deepStrictEqual(yield* requests.activeFor(user.id), Option.some({ ...request, state: "blocked" }))
        assert.isTrue(yield* requests.setState(user.id, "done"))
        assert.isTrue(Option.isNone(yield* requests.activeFor(user.id)))
        assert.isFalse(yield* requests.setState(user.id, "cancelled"), "a finished request stays finished")
      })
    )

    it.effect("a cancelled request is not active, and a new one can follow it", () =>
      Effect.gen(function* () {
        const requests = yield* DeletionRequestRepository
        const user = yield* seedUser()
        const first = aDeletionRequest({
          id: yield* freshId("deletionRequest", DeletionRequestId.make),
          userId: user.id
        })
        yield* requests.insert(first)
        assert.isTrue(yield* requests.setState(user.id, "cancelled"))
        assert.isTrue(Option.isNone(yield* requests.activeFor(user.id)))
        const second = aDeletionRequest({
          id: yield* freshId("deletionRequest", DeletionRequestId.make),
          userId: user.id
        })
        yield* requests.insert(second)
        assert.deepStrictEqual(yield* requests.activeFor(user.id), Option.some(second))
      })
    )
  })
