import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { UserRepository } from "../access/UserRepository.ts"
import { seedUser, useCases, userA, userB } from "../testing/UseCases.ts"
import { SignIn } from "./SignIn.ts"

const signIn = Layer.provideMerge(SignIn.layer, useCases)

describe("SignIn", () => {
  it.effect("an address or an id signs in to a known account, never to a deleted one", () =>
    Effect.gen(function* () {
      yield* seedUser(userA, true)
      yield* seedUser(userB, true)
      yield* UserRepository.use((users) => users.markDeleted(userB, 5))
      const service = yield* SignIn
      assert.strictEqual(Option.getOrThrow(yield* service.accountByEmail(`${userA}@example.com`)).id, userA)
      assert.isTrue(Option.isNone(yield* service.accountByEmail(`${userB}@example.com`)))
      assert.isTrue(Option.isNone(yield* service.accountByEmail("nobody@example.com")))
      assert.strictEqual(Option.getOrThrow(yield* service.account(userA)).id, userA)
      assert.isTrue(Option.isNone(yield* service.account(userB)))
      // Naming who a browser is signed in as still finds the deleted account.
      assert.strictEqual(Option.getOrThrow(yield* service.user(userB)).deletedAt, 5)
    }).pipe(Effect.provide(signIn))
  )

  it.effect("a sign-in link is spent once", () =>
    Effect.gen(function* () {
      const service = yield* SignIn
      assert.isTrue(yield* service.spendLink("nonce", 10_000, 1_000))
      assert.isFalse(yield* service.spendLink("nonce", 10_000, 2_000))
      assert.isTrue(yield* service.spendLink("other", 10_000, 2_000))
    }).pipe(Effect.provide(signIn))
  )
})
