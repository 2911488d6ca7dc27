import { BlockList, isIP } from "node:net"

/**
 * Addresses a fetch on a client's behalf must never reach: this machine, private networks,
 * link-local (cloud metadata at 169.254.169.254), carrier-grade NAT, multicast, reserved and
 * unspecified ranges; an IPv4-mapped IPv6 address is judged as its IPv4 address.
 */
const forbidden = new BlockList()
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4]
] as const) {
  forbidden.addSubnet(network, prefix, "ipv4")
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8]
] as const) {
  forbidden.addSubnet(network, prefix, "ipv6")
}

const loopback = new BlockList()
loopback.addSubnet("127.0.0.0", 8, "ipv4")
loopback.addAddress("::1", "ipv6")

const familyOf = (address: string): "ipv4" | "ipv6" | undefined =>
  isIP(address) === 4 ? "ipv4" : isIP(address) === 6 ? "ipv6" : undefined

/** IPv4-mapped IPv6 (`::ffff:10.0.0.1`) is judged as the IPv4 address it carries. */
const unmapped = (address: string): string => {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  return mapped?.[1] ?? address
}

/** True when a fetch may connect to `address` (an IP literal); loopback only when `allowLoopback`. */
export const addressAllowed = (address: string, allowLoopback: boolean): boolean => {
  const plain = unmapped(address)
  const family = familyOf(plain)
  if (family === undefined) return false
  if (allowLoopback && loopback.check(plain, family)) return true
  return !forbidden.check(plain, family)
}
