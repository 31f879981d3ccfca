/**
 * Plans of reads by shape: `?select=id,name&id=eq.42` and `…&id=eq.43` differ only in a bound value, so the
 * second is answered from the first one's plan with its own value put in. A read's shape is its schema, table,
 * query string with each simple comparison's value (`[not.]eq|neq|gt|gte|lt|lte.<value>`, which the planner
 * only binds, `$n::text::<type>`) left out, and the request options that change the statement. Every other
 * operator (`like` rewrites `*`, `in` binds one value per element, `is` splices a keyword) stays in the shape
 * with its value. A shape is learnt by planning it once with marker values; it is cached only when each marker
 * comes back as exactly one bound value and nowhere in the SQL, else the shape is remembered as not cacheable.
 * The schema cache's reload empties it (handler.ts), so a plan never outlives the schema it was made from.
 */
import type { ReadNode } from './read-plan'
import type { Options } from './request-options'

/** A learnt shape: the planned node, its bound values with the request's slots, and where each slot goes. */
export type CachedPlan = { node: ReadNode; values: (string | null)[]; slots: number[] }

const TEMPLATED = /^((?:not\.)?(?:eq|neq|gt|gte|lt|lte)\.)([\s\S]*)$/
/** Keys whose value is never a filter value (or whose value the planner reads otherwise). */
const EXACT = new Set(['select', 'columns', 'on_conflict', 'order', 'limit', 'offset', 'or', 'and'])
const MAX_SHAPES = 2000
const hasSeparator = (text: string) => text.includes('\u0000') || text.includes('\u0001')

/** A marker value no request sends (a control character cannot come from a URL's query without escaping). */
export const marker = (i: number) => `\u0001gw${i}\u0001`

/**
 * The shape of a read and the values its slots take, in query-string order; null when a key or value holds the
 * separators (or markers) themselves, which could make two shapes read alike.
 */
export function readShape(
  query: URLSearchParams,
  opts: Options,
  schema: string,
  table: string,
): { key: string; values: string[] } | null {
  const values: string[] = []
  let key = `${schema}\u0000${table}\u0000${opts.count ?? ''}\u0000${opts.csv}${opts.stripNulls}\u0000${opts.range?.offset ?? ''}-${opts.range?.limit ?? ''}`
  for (const [k, v] of query) {
    if (hasSeparator(k) || hasSeparator(v)) return null
    const m = EXACT.has(k.slice(k.lastIndexOf('.') + 1)) ? null : TEMPLATED.exec(v)
    if (m) {
      values.push(m[2])
      key += `\u0000${k}=${m[1]}\u0001`
    } else key += `\u0000${k}=${v}`
  }
  return { key, values }
}

/** The query string with each slot's value replaced by its marker, to plan a shape once. */
export function markedQuery(query: URLSearchParams): URLSearchParams {
  const marked = new URLSearchParams()
  let i = 0
  for (const [k, v] of query) {
    const m = EXACT.has(k.slice(k.lastIndexOf('.') + 1)) ? null : TEMPLATED.exec(v)
    marked.append(k, m ? `${m[1]}${marker(i++)}` : v)
  }
  return marked
}

/** Where each marker went among the bound values; null when a marker is missing, repeated or spliced into SQL. */
export function slotsOf(values: (string | null)[], sql: string, count: number): number[] | null {
  if (sql.includes('\u0001')) return null
  const slots: number[] = []
  for (let i = 0; i < count; i++) {
    const at = values.indexOf(marker(i))
    if (at < 0 || values.indexOf(marker(i), at + 1) >= 0) return null
    slots.push(at)
  }
  return values.some((v, i) => v?.includes('\u0001') && !slots.includes(i)) ? null : slots
}

/** The bound values of a cached plan for one request's slot values. */
export function bindValues(plan: CachedPlan, values: string[]): (string | null)[] {
  const bound = plan.values.slice()
  plan.slots.forEach((at, i) => (bound[at] = values[i]))
  return bound
}

/** Shapes learnt, and shapes found not cacheable (null); emptied when full, as shapes of a real app are few. */
export class PlanCache {
  private readonly plans = new Map<string, CachedPlan | null>()
  get(key: string) {
    return this.plans.get(key)
  }
  set(key: string, plan: CachedPlan | null) {
    if (this.plans.size >= MAX_SHAPES) this.plans.clear()
    this.plans.set(key, plan)
  }
  clear() {
    this.plans.clear()
  }
}
