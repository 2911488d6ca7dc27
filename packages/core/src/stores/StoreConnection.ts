import { Schema } from "effect"
import { WorkspaceId } from "../kernel/Ids.ts"
import { Timestamp } from "../kernel/Timestamp.ts"

export const StorePlatform = Schema.Literals(["sandbox", "shopify"])
export type StorePlatform = typeof StorePlatform.Type

export const StoreConnectionStatus = Schema.Literals(["connected", "disconnected"])
export type StoreConnectionStatus = typeof StoreConnectionStatus.Type

/** A workspace's link to its commerce platform. Credentials stay in the adapter, encrypted. */
export const StoreConnection = Schema.Struct({
  workspaceId: WorkspaceId,
  platform: StorePlatform,
  shop: Schema.NullOr(Schema.String),
  status: StoreConnectionStatus,
  connectedAt: Timestamp
})
export type StoreConnection = typeof StoreConnection.Type

export const isConnected = (connection: StoreConnection | null): boolean => connection?.status === "connected"
