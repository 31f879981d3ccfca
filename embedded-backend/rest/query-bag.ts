/**
 * Sorts a request's query string into what applies where: filters, logic trees, `order`, `limit` and
 * `offset` for the root (path '') and for each embedded resource (`advertiser.full_name=eq.x` → path
 * 'advertiser'). Keys the grammar reserves for other purposes are left out.
 */
import { parseError } from './errors'
import { parseLogic, parseOperation, type Condition } from './filter-parser'
import { parseField } from './grammar'

export type NodeParams = { conditions: Condition[]; order?: string; limit?: number; offset?: number }
export type QueryBag = Map<string, NodeParams>

const RESERVED = new Set(['select', 'columns', 'on_conflict'])

export function readQuery(query: URLSearchParams, skip: Set<string> = new Set()): QueryBag {
  const bag: QueryBag = new Map()
  const at = (path: string) => {
    let p = bag.get(path)
    if (!p) bag.set(path, (p = { conditions: [] }))
    return p
  }
  for (const [key, value] of query) {
    if (RESERVED.has(key) || skip.has(key)) continue
    const segments = key.split('.')
    const name = segments.pop() ?? ''
    let negate = false
    if ((name === 'or' || name === 'and') && segments[segments.length - 1] === 'not') {
      segments.pop()
      negate = true
    }
    const node = at(segments.join('.'))
    if (name === 'or' || name === 'and') node.conditions.push(parseLogic(name, negate, value))
    else if (name === 'order') node.order = value
    else if (name === 'limit' || name === 'offset') node[name] = nonNegativeInt(key, value)
    else {
      if (segments.length && !name) throw parseError(`"failed to parse filter (${key})"`)
      const { field, rest } = parseField(name)
      if (rest !== '') throw parseError(`"failed to parse filter (${key})"`, `unexpected "${rest}"`)
      node.conditions.push(parseOperation(field, value, false))
    }
  }
  return bag
}

function nonNegativeInt(key: string, value: string): number {
  if (!/^\d{1,15}$/.test(value)) throw parseError(`"failed to parse ${key} parameter (${value})"`)
  return Number(value)
}
