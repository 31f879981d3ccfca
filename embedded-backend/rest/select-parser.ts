/**
 * Parses PostgREST's `select` parameter: `id, alias:col::text, data->>k, *, amount.sum(), count(),
 * alias:table!hint!inner(cols), ...table(cols)` into a tree the planner resolves against the schema.
 */
import { parseError } from './errors'
import { parseField, splitTopLevel, type Field } from './grammar'

export const AGGREGATES = ['avg', 'count', 'max', 'min', 'sum'] as const
export type Aggregate = (typeof AGGREGATES)[number]

export type SelectItem =
  | { kind: 'star' }
  /** `cast` applies to the column (the aggregate's input); `aggCast` to the aggregate's result. */
  | { kind: 'field'; field: Field; alias?: string; cast?: string; aggregate?: Aggregate; aggCast?: string }
  /** `count()`: the rows of each group. */
  | { kind: 'count'; alias?: string; cast?: string }
  | {
      kind: 'embed'
      name: string
      alias?: string
      hint?: string
      inner: boolean
      spread: boolean
      children: SelectItem[]
    }

const CAST = '[A-Za-z_][A-Za-z0-9_]*(?:\\[\\])?'
const TAIL = new RegExp(`^(?:::(${CAST}))?(?:\\.(${AGGREGATES.join('|')})\\(\\))?(?:::(${CAST}))?$`)
const COUNT = new RegExp(`^count\\(\\)(?:::(${CAST}))?$`)
const EMBED_HEAD = /^[A-Za-z0-9_$]+(?:![A-Za-z0-9_$]+)*$/
const ALIAS = /^([A-Za-z0-9_$]+|"(?:[^"\\]|\\.)+"):(?!:)/

export function parseSelect(raw: string | null): SelectItem[] {
  if (raw === null || raw.trim() === '') return [{ kind: 'star' }]
  return splitTopLevel(raw).map((part) => parseItem(part.trim(), raw))
}

function parseItem(part: string, raw: string): SelectItem {
  const fail = (details: string) => parseError(`"failed to parse select parameter (${raw})"`, details)
  if (part === '') throw fail('empty item')
  if (part === '*') return { kind: 'star' }
  let rest = part
  let spread = false
  if (rest.startsWith('...')) {
    spread = true
    rest = rest.slice(3)
  }
  let alias: string | undefined
  const a = ALIAS.exec(rest)
  if (a) {
    alias = a[1].startsWith('"') ? a[1].slice(1, -1) : a[1]
    rest = rest.slice(a[0].length)
  }
  const count = COUNT.exec(rest)
  if (count && !spread) return { kind: 'count', alias, cast: count[1] }
  const open = rest.indexOf('(')
  if (open >= 0 && rest.endsWith(')') && EMBED_HEAD.test(rest.slice(0, open)))
    return parseEmbed(rest, open, alias, spread, raw)
  if (spread) throw fail('only embedded resources can be spread')
  const { field, rest: afterField } = parseField(rest)
  const tail = TAIL.exec(afterField)
  if (!tail) throw fail(`unexpected "${afterField}"`)
  const [, cast, aggregate, aggCast] = tail
  if (aggCast && !aggregate) throw fail(`unexpected "${afterField}"`)
  return { kind: 'field', field, alias, cast, aggregate: aggregate as Aggregate | undefined, aggCast }
}

function parseEmbed(rest: string, open: number, alias: string | undefined, spread: boolean, raw: string): SelectItem {
  const head = rest.slice(0, open)
  const body = rest.slice(open + 1, -1)
  const [name, ...marks] = head.split('!')
  let inner = false
  let hint: string | undefined
  for (const mark of marks) {
    if (mark === 'inner') inner = true
    else if (mark === 'left') inner = false
    else if (hint === undefined) hint = mark
    else throw parseError(`"failed to parse select parameter (${raw})"`, `unexpected "!${mark}"`)
  }
  const children = body.trim() === '' ? [] : splitTopLevel(body).map((p) => parseItem(p.trim(), raw))
  return { kind: 'embed', name, alias, hint, inner, spread, children }
}
