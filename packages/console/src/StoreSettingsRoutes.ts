import type { Actor } from "@margin/core/access/Actor"
import { mayManage, type Role } from "@margin/core/access/Role"
import type { UserId, WorkspaceId } from "@margin/core/kernel/Ids"
import { Cadence, Weekday } from "@margin/core/schedules/SyncSchedule"
import { SyncSchedules } from "@margin/core/schedules/SyncSchedules"
import { StorePlatform } from "@margin/core/stores/StoreConnection"
import { StoreConnections } from "@margin/core/stores/StoreConnections"
import { StoreSyncJobs } from "@margin/core/stores/StoreSyncJobs"
import type { SessionCookie } from "@margin/edge/auth"
import { Effect, Option, Redacted, Schema } from "effect"
import { type HttpServerRequest, HttpServerResponse } from "effect/http"
import { messagePage, type PageContext } from "./ConsolePage.ts"
import {
  type ConnectFormState,
  emptyConnectForm,
  type ScheduleFormState,
  scheduleFormOf,
  storeSettingsPage
} from "./StoreSettingsPage.ts"

/** A signed-in admin or owner in a workspace (ConsoleRoutes' `inWorkspace`). */
interface Place {
  readonly _tag: "InWorkspace"
  readonly userId: UserId
  readonly workspaceId: WorkspaceId
  readonly role: Role
  readonly context: PageContext
  readonly cookies: ReadonlyArray<SessionCookie>
}
interface Posted extends Place {
  readonly form: URLSearchParams
}
interface Answered {
  readonly _tag: "Answer"
  readonly response: HttpServerResponse.HttpServerResponse
}

type Request = HttpServerRequest.HttpServerRequest

const storePathOf = (workspaceId: WorkspaceId) => `/app/w/${encodeURIComponent(workspaceId)}/settings/store`

const seeStore = (workspaceId: WorkspaceId, notice: string) =>
  HttpServerResponse.redirect(`${storePathOf(workspaceId)}?done=${encodeURIComponent(notice)}`, {
    status: 303,
    headers: { "cache-control": "no-store" }
  })

const adminsOnly = (place: Place) =>
  mayManage(place.role)
    ? undefined
    : messagePage(
        403,
        "Admins only",
        `The store's settings are managed by admins and owners; your role is ${place.role}.`,
        place.context
      )

/** What a page may say after a redirect: one of these, nothing a link could inject. */
const notices = {
  sync: "Sync started: a worker reads the store now; reload to see it end.",
  schedule: "Schedule saved.",
  disconnect: "Store disconnected.",
  connect: "Store connected: its credentials were checked. Sync now to bring its catalog in."
} as const
const isNotice = (key: string): key is keyof typeof notices => Object.hasOwn(notices, key)

/**
 * The Store settings page's routes (docs/console.md, "Settings: Store"): the page, Sync now, the
 * schedule form and disconnect, for admins and owners, through ConsoleRoutes' session, workspace
 * and CSRF checks (`inWorkspace`, `posted`).
 */
export const storeRoutes = <E, R>(
  inWorkspace: (request: Request, current: "store") => Effect.Effect<Answered | Place, E, R>,
  posted: (request: Request, current: "store") => Effect.Effect<Answered | Posted, E, R>,
  actorOf: (place: Place) => Actor
) =>
  Effect.gen(function* () {
    const connections = yield* StoreConnections
    const jobs = yield* StoreSyncJobs
    const schedules = yield* SyncSchedules
    const page = (
      place: Place,
      options: {
        readonly form?: ScheduleFormState
        readonly connectForm?: ConnectFormState
        readonly notice?: string | null
        readonly status?: number
      } = {}
    ) =>
      Effect.gen(function* () {
        const connection = yield* connections.get(place.workspaceId)
        const latest = yield* jobs.latest(place.workspaceId)
        const schedule = yield* schedules.get(place.workspaceId)
        return storeSettingsPage({
          context: place.context,
          workspaceId: place.workspaceId,
          connection: Option.getOrNull(connection),
          latest: Option.getOrNull(latest),
          schedule,
          form: options.form ?? scheduleFormOf(schedule),
          connectForm: options.connectForm ?? emptyConnectForm,
          notice: options.notice ?? null,
          ...(options.status === undefined ? {} : { status: options.status })
        })
      })

    const show = (request: Request) =>
      Effect.gen(function* () {
        const place = yield* inWorkspace(request, "store")
        if (place._tag === "Answer") return place.response
        const refused = adminsOnly(place)
        if (refused !== undefined) return refused
        const done = new URL(request.url, "http://localhost").searchParams.get("done") ?? ""
        return HttpServerResponse.setCookiesUnsafe(
          yield* page(place, { notice: isNotice(done) ? notices[done] : null }),
          place.cookies
        )
      })

    const syncNow = (request: Request) =>
      Effect.gen(function* () {
        const place = yield* posted(request, "store")
        if (place._tag === "Answer") return place.response
        const refused = adminsOnly(place)
        if (refused !== undefined) return refused
        return yield* jobs.request(place.workspaceId, actorOf(place)).pipe(
          Effect.as(seeStore(place.workspaceId, "sync")),
          Effect.catchTag("NoCommerceIntegration", () =>
            page(place, { notice: "No store is connected: there is nothing to sync.", status: 409 })
          )
        )
      })

    const saveSchedule = (request: Request) =>
      Effect.gen(function* () {
        const place = yield* posted(request, "store")
        if (place._tag === "Answer") return place.response
        const refused = adminsOnly(place)
        if (refused !== undefined) return refused
        const form = place.form
        const state: ScheduleFormState = {
          cadence: form.get("cadence") ?? "",
          weekday: form.get("weekday") ?? "",
          hour: (form.get("hour") ?? "").trim(),
          timeZone: (form.get("time_zone") ?? "").trim().slice(0, 100),
          runAfterSync: form.get("run_after_sync") === "true",
          error: null
        }
        const cadence = Schema.decodeUnknownOption(Cadence)(state.cadence)
        const weekday = Schema.decodeUnknownOption(Weekday)(state.weekday)
        const hour = /^[0-9]{1,2}$/.test(state.hour) ? Number(state.hour) : Number.NaN
        const refusedWith = (error: string) => page(place, { form: { ...state, error }, status: 400 })
        if (Option.isNone(cadence)) return yield* refusedWith("Choose off, every day or once a week.")
        if (!(hour >= 0 && hour <= 23)) return yield* refusedWith("Hour: a whole number from 0 to 23.")
        if (cadence.value === "weekly" && Option.isNone(weekday))
          return yield* refusedWith("Choose the day of the week.")
        return yield* schedules
          .set(
            place.workspaceId,
            {
              cadence: cadence.value,
              weekday: cadence.value === "weekly" ? Option.getOrNull(weekday) : null,
              hour,
              timeZone: state.timeZone,
              runAfterSync: state.runAfterSync
            },
            actorOf(place)
          )
          .pipe(
            Effect.as(seeStore(place.workspaceId, "schedule")),
            Effect.catchTag("InvalidInput", (invalid) => refusedWith(`${invalid.message}.`))
          )
      })

    const connect = (request: Request) =>
      Effect.gen(function* () {
        const place = yield* posted(request, "store")
        if (place._tag === "Answer") return place.response
        const refused = adminsOnly(place)
        if (refused !== undefined) return refused
        const state: ConnectFormState = {
          platform: place.form.get("platform") ?? "",
          shop: (place.form.get("shop") ?? "").trim().slice(0, 255),
          error: null
        }
        const token = (place.form.get("access_token") ?? "").trim()
        const refusedWith = (error: string, status: number) => page(place, { connectForm: { ...state, error }, status })
        const platform = Schema.decodeUnknownOption(StorePlatform)(state.platform)
        if (Option.isNone(platform)) return yield* refusedWith("Choose the sandbox store or Shopify.", 400)
        const shopify = platform.value === "shopify"
        return yield* connections
          .connect(
            place.workspaceId,
            {
              platform: platform.value,
              shop: shopify && state.shop !== "" ? state.shop : null,
              accessToken: shopify && token !== "" ? Redacted.make(token) : null
            },
            actorOf(place)
          )
          .pipe(
            Effect.as(seeStore(place.workspaceId, "connect")),
            Effect.catchTags({
              InvalidInput: (invalid) => refusedWith(`${invalid.message}.`, 400),
              StoreConnectionRefused: (refusal) =>
                refusal.unavailable
                  ? refusedWith(
                      `Shopify could not be reached to check the connection; try again (${refusal.message}).`,
                      503
                    )
                  : refusedWith(`Shopify refused the connection: ${refusal.message}. Nothing was stored.`, 400)
            })
          )
      })

    const disconnect = (request: Request) =>
      Effect.gen(function* () {
        const place = yield* posted(request, "store")
        if (place._tag === "Answer") return place.response
        const refused = adminsOnly(place)
        if (refused !== undefined) return refused
        yield* connections.disconnect(place.workspaceId, actorOf(place))
        return seeStore(place.workspaceId, "disconnect")
      })

    return [
      ["GET", "/app/w/:workspace_id/settings/store", show],
      ["POST", "/app/w/:workspace_id/settings/store/sync", syncNow],
      ["POST", "/app/w/:workspace_id/settings/store/schedule", saveSchedule],
      ["POST", "/app/w/:workspace_id/settings/store/disconnect", disconnect],
      ["POST", "/app/w/:workspace_id/settings/store/connect", connect]
    ] as const
  })
