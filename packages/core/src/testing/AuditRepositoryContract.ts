import { assert, layer } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import type { AuditEvent } from "../audit/AuditEvent.ts"
import { AuditRepository } from "../audit/AuditRepository.ts"
import type { IdGenerator } from "../kernel/IdGenerator.ts"
import { AuditEventId } from "../kernel/Ids.ts"
import type { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import { anAuditEvent, fixtureNow, minuteMs } from "./Fixtures.ts"
import { assertPaging } from "./PagingContract.ts"
import { freshId, seedWorkspace } from "./Seed.ts"

export type AuditContractServices = AuditRepository | WorkspaceRepository | IdGenerator

/** The AuditRepository port's contract: every adapter must pass it. */
export const auditRepositoryContract = <E>(name: string, services: Layer.Layer<AuditContractServices, E>) =>
  layer(services)(`AuditRepository contract (${name})`, (it) => {
    it.effect("list pages the workspace's events newest first by `at`", () =>
      Effect.gen(function* () {
        const audit = yield* AuditRepository
        const workspace = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        const events: Array<AuditEvent> = []
        for (let n = 0; n < 5; n++) {
          const event = anAuditEvent({
            id: yield* freshId("auditEvent", AuditEventId.make),
            workspaceId: workspace.id,
            at: fixtureNow + Math.floor(n / 2) * minuteMs
          })
          yield* audit.record(event)
          events.push(event)
        }
        yield* audit.record(
          anAuditEvent({ id: yield* freshId("auditEvent", AuditEventId.make), workspaceId: other.id })
        )
        const key = (event: AuditEvent) => ({ createdAt: event.at, id: event.id })
        yield* assertPaging((page) => audit.list(workspace.id, page), key, events.map(key), 2)
        const page = yield* audit.list(workspace.id, { limit: 50, cursor: null })
        const byId = new Map(events.map((event) => [event.id, event]))
        for (const event of page.items)
          assert.deepStrictEqual(event, byId.get(event.id), "events come back as recorded")
      })
    )
  })
