/** @margin/redis: the Redis adapter of core's RateBudgetStore port (the rate budget shared across processes). */
export * as RedisRateBudgetStore from "./RedisRateBudgetStore.ts"
