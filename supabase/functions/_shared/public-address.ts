/**
 * Whether an IP address is public: the ranges the database refuses when an endpoint is saved
 * (private.is_non_public_address), checked again by deliver-webhooks for every address a name resolves to.
 * Pure (no Deno APIs), so the tests run it under Node.
 */
type Cidr = [bytes: number[], bits: number]

/**
 * The ranges, as text. supabase/tests/rule-bounds.test.ts probes private.is_non_public_address at both ends of
 * each (and just outside) and fails when the database's list and this one disagree.
 */
export const BLOCKED_RANGES = {
  v4: [
    '0.0.0.0/8',
    '10.0.0.0/8',
    '100.64.0.0/10',
    '127.0.0.0/8',
    '169.254.0.0/16',
    '172.16.0.0/12',
    '192.0.0.0/24',
    '192.0.2.0/24',
    '192.88.99.0/24',
    '192.168.0.0/16',
    '198.18.0.0/15',
    '198.51.100.0/24',
    '203.0.113.0/24',
    '224.0.0.0/4',
    '240.0.0.0/4',
  ],
  // IPv6: only global unicast (2000::/3) is public, minus documentation, 6to4 and Teredo (they can wrap a private IPv4).
  v6Global: '2000::/3',
  v6: ['2001:db8::/32', '2002::/16', '2001::/32'],
} as const

const V4_BLOCKED: Cidr[] = BLOCKED_RANGES.v4.map(cidr)
const V6_GLOBAL = cidr(BLOCKED_RANGES.v6Global)
const V6_BLOCKED: Cidr[] = BLOCKED_RANGES.v6.map(cidr)

function cidr(text: string): Cidr {
  const [address, bits] = text.split('/')
  return [parseIp(address!)!, Number(bits)]
}

function inCidr(bytes: number[], [net, bits]: Cidr): boolean {
  if (bytes.length !== net.length) return false
  for (let i = 0; i < bits; i++) {
    const mask = 0x80 >> (i % 8)
    if ((bytes[i >> 3]! & mask) !== (net[i >> 3]! & mask)) return false
  }
  return true
}

function parseV4(text: string): number[] | null {
  const parts = text.split('.')
  if (parts.length !== 4) return null
  const bytes = parts.map((p) => (/^(0|[1-9][0-9]{0,2})$/.test(p) ? Number(p) : NaN))
  return bytes.every((b) => b >= 0 && b <= 255) ? bytes : null
}

function parseV6(text: string): number[] | null {
  let t = text
  // An embedded IPv4 tail (::ffff:10.0.0.1) becomes its two hex groups.
  if (t.includes('.')) {
    const at = t.lastIndexOf(':')
    const v4 = parseV4(t.slice(at + 1))
    if (!v4) return null
    t = `${t.slice(0, at + 1)}${((v4[0]! << 8) | v4[1]!).toString(16)}:${((v4[2]! << 8) | v4[3]!).toString(16)}`
  }
  const halves = t.split('::')
  if (halves.length > 2) return null
  const groups = (s: string) => (s === '' ? [] : s.split(':'))
  const left = groups(halves[0]!)
  const right = halves.length === 2 ? groups(halves[1]!) : []
  const missing = 8 - left.length - right.length
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null
  const all = [...left, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...right]
  const bytes: number[] = []
  for (const g of all) {
    if (!/^[0-9a-f]{1,4}$/i.test(g)) return null
    const n = parseInt(g, 16)
    bytes.push(n >> 8, n & 255)
  }
  return bytes
}

/** The address as 4 or 16 bytes, or null when it is not an IP literal (brackets allowed around IPv6). */
export function parseIp(text: string): number[] | null {
  const t = text.replace(/^\[|\]$/g, '')
  return t.includes(':') ? parseV6(t) : parseV4(t)
}

export function isPublicIp(text: string): boolean {
  const bytes = parseIp(text)
  if (!bytes) return false
  if (bytes.length === 4) return !V4_BLOCKED.some((c) => inCidr(bytes, c))
  return inCidr(bytes, V6_GLOBAL) && !V6_BLOCKED.some((c) => inCidr(bytes, c))
}
