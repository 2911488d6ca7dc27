import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import { UserRepository } from "../access/UserRepository.ts"
import type { IdGenerator } from "../kernel/IdGenerator.ts"
import { UserId } from "../kernel/Ids.ts"
import { aUser, fixtureNow, minuteMs } from "./Fixtures.ts"
import { assertPagingAmong, createdAtKey } from "./PagingContract.ts"
import { expectSome, freshId, seedUser } from "./Seed.ts"

export type UserContractServices = UserRepository | IdGenerator

/** The UserRepository port's contract: every adapter must pass it. */
export const userRepositoryContract = <E>(name: string, services: Layer.Layer<UserContractServices, E>) =>
  layer(services)(`UserRepository contract (${name})`, (it) => {
    it.effect("insert then get, and findByEmail without regard to case", () =>
      Effect.gen(function* () {
        const users = yield* UserRepository
        const user = yield* seedUser({ emailConfirmed: false })
        assert.deepStrictEqual(yield* users.get(user.id), Option.some(user))
        assert.deepStrictEqual(yield* users.findByEmail(user.email), Option.some(user))
        assert.deepStrictEqual(yield* users.findByEmail(user.email.toUpperCase()), Option.some(user))
        assert.isTrue(Option.isNone(yield* users.findByEmail(`x${user.email}`)))
        assert.isTrue(Option.isNone(yield* users.get(yield* freshId("user", UserId.make))))
      })
    )

    it.effect("one account per id and per e-mail address", () =>
      Effect.gen(function* () {
        const users = yield* UserRepository
        const user = yield* seedUser()
        assert.strictEqual((yield* Effect.flip(users.insert(user)))._tag, "RepositoryError")
        const sameEmail = aUser({ id: yield* freshId("user", UserId.make), email: user.email.toUpperCase() })
        assert.strictEqual((yield* Effect.flip(users.insert(sameEmail)))._tag, "RepositoryError")
        assert.isTrue(Option.isNone(yield* users.get(sameEmail.id)))
      })
    )

    it.effect("markDeleted is true for the call that deletes and keeps the first instant", () =>
      Effect.gen(function* () {
        const users = yield* UserRepository
        const user = yield* seedUser()
        assert.isTrue(yield* users.markDeleted(user.id, fixtureNow))
        assert.isFalse(yield* users.markDeleted(user.id, fixtureNow + minuteMs))
        assert.strictEqual((yield* expectSome(yield* users.get(user.id), "the user")).deletedAt, fixtureNow)
        assert.isFalse(yield* users.markDeleted(yield* freshId("user", UserId.make), fixtureNow))
      })
    )

    it.effect("setEmailConfirmed sets the flag; false for an unknown user", () =>
      Effect.gen(function* () {
        const users = yield* UserRepository
        const user = yield* seedUser({ emailConfirmed: false })
        assert.isTrue(yield* users.setEmailConfirmed(user.id, true))
        assert.isTrue((yield* expectSome(yield* users.get(user.id), "the user")).emailConfirmed)
        assert.isTrue(yield* users.setEmailConfirmed(user.id, false))
        assert.isFalse((yield* expectSome(yield* users.get(user.id), "the user")).emailConfirmed)
        assert.isFalse(yield* users.setEmailConfirmed(yield* freshId("user", UserId.make), true))
      })
    )

    it.effect("list pages every user newest first, deleted ones too", () =>
      Effect.gen(function* () {
        const users = yield* UserRepository
        const seeded = [
          yield* seedUser({ createdAt: fixtureNow + 2 * minuteMs }),
          yield* seedUser({ createdAt: fixtureNow + 2 * minuteMs, deletedAt: fixtureNow + 5 * minuteMs }),
          yield* seedUser({ createdAt: fixtureNow - minuteMs }),
          yield* seedUser({ createdAt: fixtureNow + 9 * minuteMs })
        ]
        yield* assertPagingAmong((page) => users.list(page), createdAtKey, seeded, 3)
      })
    )
  })
