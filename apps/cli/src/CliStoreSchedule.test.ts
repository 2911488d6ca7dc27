import { assert, layer } from "@effect/vitest"
import { TestDatabase } from "@margin/postgres/testing/TestDatabase"
import { Effect } from "effect"
import {
  assertFailed,
  marginctlJsonOnTestDatabase,
  marginctlOnTestDatabase,
  processTimeout,
  textOf
} from "./testing/Marginctl.ts"

/** marginctl store schedule as a process, on a fresh migrated database. */

layer(TestDatabase.layer, { timeout: "5 minutes" })("marginctl store schedule", (it) => {
  it.effect(
    "shows the default (off), sets a weekly schedule in a time zone, refuses an unknown zone, turns it off",
    () =>
      Effect.gen(function* () {
        const workspaceId = textOf(
          (yield* marginctlJsonOnTestDatabase("workspace", "create", "--name", "Schedule Co", "--plan", "max")).id
        )
        const shown = yield* marginctlJsonOnTestDatabase("store", "schedule", "--workspace", workspaceId)
        assert.deepStrictEqual([shown.cadence, shown.next_slot_at, shown.updated_at], ["off", null, null])
        const set = yield* marginctlJsonOnTestDatabase(
          "store",
          "schedule",
          "--workspace",
          workspaceId,
          "--cadence",
          "weekly",
          "--day",
          "tuesday",
          "--hour",
          "6",
          "--time-zone",
          "europe/berlin",
          "--run-after-sync",
          "false"
        )
        assert.deepStrictEqual(
          [set.cadence, set.weekday, set.hour, set.time_zone, set.run_after_sync, set.updated_by],
          ["weekly", "tuesday", 6, "Europe/Berlin", false, "system:marginctl"]
        )
        // The next slot is a Tuesday at 06:00 in Berlin: 04:00 or 05:00 UTC.
        const next = new Date(textOf(set.next_slot_at))
        assert.deepStrictEqual([next.getUTCDay(), [4, 5].includes(next.getUTCHours())], [2, true])
        assert.deepStrictEqual(yield* marginctlJsonOnTestDatabase("store", "schedule", "--workspace", workspaceId), set)
        const wrongZone = yield* marginctlOnTestDatabase(
          "store",
          "schedule",
          "--workspace",
          workspaceId,
          "--cadence",
          "daily",
          "--time-zone",
          "Mars/Olympus"
        )
        assertFailed(wrongZone, /not an IANA time zone/, 2)
        const off = yield* marginctlJsonOnTestDatabase(
          "store",
          "schedule",
          "--workspace",
          workspaceId,
          "--cadence",
          "off"
        )
        assert.deepStrictEqual(
          [off.cadence, off.weekday, off.next_slot_at, off.time_zone],
          ["off", null, null, "Europe/Berlin"]
        )
      }),
    processTimeout
  )
})
