/**
 * Parses PostgREST filters: `col=not.op.value` in the query string and the logic trees
 * `or=(a.eq.1,and(b.gt.2,not.c.is.null))`. Values stay strings; the planner casts them to column types.
 */
import { parseError } from './errors'
import { parseField, splitTopLevel, unquote, type Field } from './grammar'

export const OPERATORS = [
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'like',
  'ilike',
  'match',
  'imatch',
  'is',
  'isdistinct',
  'in',
  'cs',
  'cd',
  'ov',
  'sl',
  'sr',
  'nxl',
  'nxr',
  'adj',
  'fts',
  'plfts',
  'phfts',
  'wfts',
] as const
export type Operator = (typeof OPERATORS)[number]

export type Condition =
  | {
      kind: 'filter'
      field: Field
      negate: boolean
      op: Operator
      value: string
      list?: string[]
      language?: string
      /** `like(any).{a*,b*}`: the operator against any (or all) of a list. */
      quantifier?: 'any' | 'all'
    }
  | { kind: 'logic'; op: 'and' | 'or'; negate: boolean; children: Condition[] }

const OP_SET = new Set<string>(OPERATORS)
/** The operators PostgREST accepts `(any)` and `(all)` on. */
const QUANTIFIABLE = new Set<string>(['eq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'match', 'imatch'])

/** The value part of `col=<value>`, e.g. `not.in.(a,"b,c")`; `quoted` is true inside logic trees. */
export function parseOperation(field: Field, raw: string, quoted: boolean): Condition {
  let rest = raw
  let negate = false
  if (rest.startsWith('not.')) {
    negate = true
    rest = rest.slice(4)
  }
  const dot = rest.indexOf('.')
  const opToken = dot < 0 ? rest : rest.slice(0, dot)
  const value = dot < 0 ? '' : rest.slice(dot + 1)
  const m = /^([a-z]+)(?:\(([A-Za-z_]+)\))?$/.exec(opToken)
  if (!m || !OP_SET.has(m[1]) || dot < 0) {
    throw parseError(`"failed to parse filter (${raw})"`, `unknown operator "${opToken}"`)
  }
  const op = m[1] as Operator
  const modifier = m[2]
  const quantifier = (modifier === 'any' || modifier === 'all') && QUANTIFIABLE.has(op) ? modifier : undefined
  const language = op.endsWith('fts') ? modifier : undefined
  if (modifier && !quantifier && !language) throw parseError(`"failed to parse filter (${raw})"`, 'unexpected modifier')
  if (quantifier) {
    if (!value.startsWith('{') || !value.endsWith('}')) {
      throw parseError(`"failed to parse filter (${raw})"`, `${op}(${quantifier}) expects a list in braces, e.g. {a,b}`)
    }
    const inner = value.slice(1, -1)
    const list = inner.trim() === '' ? [] : splitTopLevel(inner, ',', true).map((v) => unquote(v))
    return { kind: 'filter', field, negate, op, value, list, quantifier }
  }
  if (op === 'in') {
    if (!value.startsWith('(') || !value.endsWith(')')) {
      throw parseError(`"failed to parse filter (${raw})"`, 'in. expects a list in parentheses')
    }
    const inner = value.slice(1, -1)
    const list = inner.trim() === '' ? [] : splitTopLevel(inner, ',', true).map((v) => unquote(v))
    return { kind: 'filter', field, negate, op, value, list }
  }
  return { kind: 'filter', field, negate, op, value: quoted ? unquote(value) : value, language }
}

/** `(a.eq.1,or(b.eq.2,c.eq.3))` for the `or`/`and` keys; `negate` comes from `not.or`. */
export function parseLogic(op: 'and' | 'or', negate: boolean, raw: string): Condition {
  if (!raw.startsWith('(') || !raw.endsWith(')')) {
    throw parseError(`"failed to parse logic tree (${raw})"`, 'expected a list in parentheses')
  }
  const inner = raw.slice(1, -1)
  if (inner.trim() === '') throw parseError(`"failed to parse logic tree (${raw})"`, 'empty logic tree')
  return { kind: 'logic', op, negate, children: splitTopLevel(inner).map((p) => parseLogicItem(p.trim())) }
}

function parseLogicItem(item: string): Condition {
  const m = /^(not\.)?(and|or)(\(.*\))$/s.exec(item)
  if (m) return parseLogic(m[2] as 'and' | 'or', Boolean(m[1]), m[3])
  const { field, rest } = parseField(item)
  if (!rest.startsWith('.')) throw parseError(`"failed to parse logic tree (${item})"`, 'expected field.operator.value')
  return parseOperation(field, rest.slice(1), true)
}
