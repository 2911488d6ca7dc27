/**
 * @margin/rest: the REST front door: the HttpApi definition (also on its own, "@margin/rest/api"),
 * its handlers and middlewares, the app a process serves (HttpApp) and its node:http server.
 */
export * as HttpApp from "./HttpApp.ts"
export { createNodeServer } from "./NodeServer.ts"
export * as ResponseGuard from "./ResponseGuard.ts"
export { type RouteTable, routeTable } from "./RouteTable.ts"
