import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import type { Alert } from "../alerts/Alert.ts"
import { type AlertFilter, AlertRepository } from "../alerts/AlertRepository.ts"
import type { CatalogRepository } from "../catalog/CatalogRepository.ts"
import type { IdGenerator } from "../kernel/IdGenerator.ts"
import { AlertId } from "../kernel/Ids.ts"
import * as Outcome from "../kernel/Outcome.ts"
import type { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import { fixtureNow, hourMs, minuteMs } from "./Fixtures.ts"
import { assertPaging, createdAtKey } from "./PagingContract.ts"
import { expectSome, freshId, newAlert, seedItem, seedWorkspace } from "./Seed.ts"

export type AlertContractServices = AlertRepository | CatalogRepository | WorkspaceRepository | IdGenerator

const everything: AlertFilter = { status: null, kind: null, itemId: null }
const firstPage = { limit: 50, cursor: null }
const idsOf = (alerts: ReadonlyArray<Alert>) => alerts.map((alert) => alert.id).sort()

/** A workspace with two items. */
const scene = Effect.fnUntraced(function* () {
  const workspace = yield* seedWorkspace()
  const item = yield* seedItem(workspace.id, { sku: "A" })
  const otherItem = yield* seedItem(workspace.id, { sku: "B" })
  return { workspace, item, otherItem }
})

/** The AlertRepository port's contract: every adapter must pass it. */
export const alertRepositoryContract = <E>(name: string, services: Layer.Layer<AlertContractServices, E>) =>
  layer(services)(`AlertRepository contract (${name})`, (it) => {
    it.effect("get finds an alert in its own workspace only", () =>
      Effect.gen(function* () {
        const alerts = yield* AlertRepository
        const { workspace, item } = yield* scene()
        const other = yield* seedWorkspace()
        const alert = yield* newAlert(workspace.id, item.id)
        assert.strictEqual(yield* alerts.raiseMany([alert]), 1)
        assert.deepStrictEqual(yield* alerts.get(workspace.id, alert.id), Option.some(alert))
        assert.isTrue(Option.isNone(yield* alerts.get(other.id, alert.id)))
        assert.isTrue(Option.isNone(yield* alerts.get(workspace.id, yield* freshId("alert", AlertId.make))))
      })
    )

    it.effect("raiseMany skips an alert whose (item, kind) is already open or snoozed, also within one batch", () =>
      Effect.gen(function* () {
        const alerts = yield* AlertRepository
        const { workspace, item, otherItem } = yield* scene()
        const open = yield* newAlert(workspace.id, item.id, { kind: "below_floor" })
        const snoozed = yield* newAlert(workspace.id, item.id, {
          kind: "missing_cost",
          status: "snoozed",
          snoozedUntil: fixtureNow + hourMs
        })
        const workspaceWide = yield* newAlert(workspace.id, null, { kind: "write_back_failed" })
        assert.strictEqual(yield* alerts.raiseMany([open, snoozed, workspaceWide]), 3)

        const again = [
          yield* newAlert(workspace.id, item.id, { kind: "below_floor" }),
          yield* newAlert(workspace.id, item.id, { kind: "missing_cost" }),
          yield* newAlert(workspace.id, null, { kind: "write_back_failed" })
        ]
        const fresh = [
          yield* newAlert(workspace.id, item.id, { kind: "negative_margin" }),
          yield* newAlert(workspace.id, otherItem.id, { kind: "below_floor" })
        ]
        const twice = yield* newAlert(workspace.id, otherItem.id, { kind: "below_floor" })
        assert.strictEqual(yield* alerts.raiseMany([...again, ...fresh, twice]), 2)
        const stored = yield* alerts.list(workspace.id, everything, firstPage, fixtureNow)
        assert.deepStrictEqual(idsOf(stored.items), idsOf([open, snoozed, workspaceWide, ...fresh]))
      })
    )

    it.effect("raiseMany raises again once the standing alert is resolved or dismissed, and per workspace", () =>
      Effect.gen(function* () {
        const alerts = yield* AlertRepository
        const { workspace, item } = yield* scene()
        const other = yield* seedWorkspace()
        const resolved = yield* newAlert(workspace.id, item.id, { kind: "below_floor", status: "resolved" })
        const dismissed = yield* newAlert(workspace.id, null, { kind: "price_drift", status: "dismissed" })
        assert.strictEqual(yield* alerts.raiseMany([resolved, dismissed]), 2)
        const reopened = [
          yield* newAlert(workspace.id, item.id, { kind: "below_floor" }),
          yield* newAlert(workspace.id, null, { kind: "price_drift" }),
          yield* newAlert(other.id, null, { kind: "price_drift" })
        ]
        assert.strictEqual(yield* alerts.raiseMany(reopened), 3)
        assert.strictEqual(yield* alerts.raiseMany([yield* newAlert(other.id, null, { kind: "price_drift" })]), 0)
        assert.strictEqual(yield* alerts.raiseMany([]), 0)
      })
    )

    it.effect("list filters by effective status: an expired snooze reads as open", () =>
      Effect.gen(function* () {
        const alerts = yield* AlertRepository
        const { workspace, item, otherItem } = yield* scene()
        const now = fixtureNow + hourMs
        const open = yield* newAlert(workspace.id, item.id, { kind: "below_floor" })
        const expired = yield* newAlert(workspace.id, item.id, {
          kind: "missing_cost",
          status: "snoozed",
          snoozedUntil: now
        })
        const snoozed = yield* newAlert(workspace.id, item.id, {
          kind: "negative_margin",
          status: "snoozed",
          snoozedUntil: now + minuteMs
        })
        const resolved = yield* newAlert(workspace.id, otherItem.id, { kind: "below_floor", status: "resolved" })
        const dismissed = yield* newAlert(workspace.id, otherItem.id, { kind: "cost_changed", status: "dismissed" })
        yield* alerts.raiseMany([open, expired, snoozed, resolved, dismissed])
        const list = (filter: Partial<AlertFilter>) =>
          alerts
            .list(workspace.id, { ...everything, ...filter }, firstPage, now)
            .pipe(Effect.map((page) => idsOf(page.items)))
        assert.deepStrictEqual(yield* list({ status: "open" }), idsOf([open, expired]))
        assert.deepStrictEqual(yield* list({ status: "snoozed" }), idsOf([snoozed]))
        assert.deepStrictEqual(yield* list({ status: "resolved" }), idsOf([resolved]))
        assert.deepStrictEqual(yield* list({ status: "dismissed" }), idsOf([dismissed]))
        assert.deepStrictEqual(yield* list({ kind: "below_floor" }), idsOf([open, resolved]))
        assert.deepStrictEqual(yield* list({ itemId: otherItem.id }), idsOf([resolved, dismissed]))
        assert.deepStrictEqual(yield* list({ status: "open", kind: "missing_cost", itemId: item.id }), idsOf([expired]))
      })
    )

    it.effect("list pages newest first and stays in its workspace", () =>
      Effect.gen(function* () {
        const alerts = yield* AlertRepository
        const { workspace } = yield* scene()
        const other = yield* seedWorkspace()
        const kinds = ["negative_margin", "below_floor", "missing_cost", "cost_changed", "price_drift"] as const
        const raised: Array<Alert> = []
        for (const [n, kind] of kinds.entries()) {
          raised.push(yield* newAlert(workspace.id, null, { kind, createdAt: fixtureNow + (n % 2) * minuteMs }))
        }
        yield* alerts.raiseMany([...raised, yield* newAlert(other.id, null)])
        yield* assertPaging((page) => alerts.list(workspace.id, everything, page, fixtureNow), createdAtKey, raised, 2)
      })
    )

    it.effect("update saves a transition with the version bumped; a repeat or a conflict saves nothing", () =>
      Effect.gen(function* () {
        const alerts = yield* AlertRepository
        const { workspace, item } = yield* scene()
        const other = yield* seedWorkspace()
        const alert = yield* newAlert(workspace.id, item.id)
        yield* alerts.raiseMany([alert])
        const now = fixtureNow + minuteMs
        const resolve = (current: Alert) =>
          current.status === "resolved"
            ? Outcome.idempotentRepeat(current)
            : Outcome.transitioned(current, {
                ...current,
                status: "resolved" as const,
                resolvedAt: now,
                updatedAt: now
              })
        assert.isTrue(Option.isNone(yield* alerts.update(other.id, alert.id, resolve)))
        const outcome = yield* expectSome(yield* alerts.update(workspace.id, alert.id, resolve), "an outcome")
        assert.strictEqual(outcome._tag, "Transitioned")
        const stored = yield* expectSome(yield* alerts.get(workspace.id, alert.id), "the alert")
        assert.strictEqual(stored.status, "resolved")
        assert.strictEqual(stored.version, alert.version + 1)
        assert.strictEqual(
          Option.getOrUndefined(yield* alerts.update(workspace.id, alert.id, resolve))?._tag,
          "IdempotentRepeat"
        )
        const conflict = yield* alerts.update(workspace.id, alert.id, (current) =>
          Outcome.conflict({ ...current, status: "open" }, "resolved is final")
        )
        assert.strictEqual(Option.getOrUndefined(conflict)?._tag, "Conflict")
        assert.deepStrictEqual(yield* alerts.get(workspace.id, alert.id), Option.some(stored))
      })
    )
  })
