/**
 * The differences between two schema catalogs, one line each with the path of what differs
 * (`functions[public.request_payout(p_amount numeric)].definition`), so a failing comparison says what changed.
 * Arrays of named things are matched by name; others (columns, labels, rows) by position.
 */
const keyOf = (x: unknown): string | null => {
  if (!x || typeof x !== 'object' || Array.isArray(x)) return null
  const o = x as Record<string, unknown>
  if (typeof o.signature === 'string') return `${o.schema}.${o.signature}`
  if (typeof o.table === 'string' && typeof o.name === 'string') return `${o.table}.${o.name}`
  if (typeof o.table === 'string') return `${o.schema}.${o.table}`
  if (typeof o.name === 'string') return typeof o.schema === 'string' ? `${o.schema}.${o.name}` : o.name
  if (typeof o.role === 'string') return `${o.role} ${o.schema ?? ''} ${o.objectType ?? ''}`.trim()
  return null
}

const show = (v: unknown) => {
  const s = JSON.stringify(v)
  return s.length > 400 ? `${s.slice(0, 400)}…` : s
}

export function catalogDiff(expected: unknown, actual: unknown, at = ''): string[] {
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const keyed = [...expected, ...actual].every((x) => keyOf(x) !== null)
    if (keyed && (expected.length || actual.length)) {
      const a = new Map(expected.map((x) => [keyOf(x)!, x]))
      const b = new Map(actual.map((x) => [keyOf(x)!, x]))
      const out: string[] = []
      for (const [k, v] of a)
        out.push(...(b.has(k) ? catalogDiff(v, b.get(k), `${at}[${k}]`) : [`${at}[${k}]: missing`]))
      for (const k of b.keys()) if (!a.has(k)) out.push(`${at}[${k}]: unexpected ${show(b.get(k))}`)
      return out
    }
    if (expected.length !== actual.length) return [`${at}: ${show(expected)} ≠ ${show(actual)}`]
    return expected.flatMap((x, i) => catalogDiff(x, actual[i], `${at}[${i}]`))
  }
  if (
    expected &&
    actual &&
    typeof expected === 'object' &&
    typeof actual === 'object' &&
    !Array.isArray(expected) &&
    !Array.isArray(actual)
  ) {
    const e = expected as Record<string, unknown>
    const a = actual as Record<string, unknown>
    return [...new Set([...Object.keys(e), ...Object.keys(a)])].flatMap((k) =>
      catalogDiff(e[k], a[k], at ? `${at}.${k}` : k),
    )
  }
  return JSON.stringify(expected) === JSON.stringify(actual) ? [] : [`${at}: ${show(expected)} ≠ ${show(actual)}`]
}
