/**
 * Parses PostgREST's `select` parameter: `id, alias:col::text, data->>k, *,
 * alias:table!hint!inner(cols), ...table(cols)` into a tree the planner resolves against the schema.
 */
import { parseError } from './errors'
import { parseField, splitTopLevel, type Field } from './grammar'

export type SelectItem =
  | { kind: 'star' }
  | { kind: 'field'; field: Field; alias?: string; cast?: string }
  | {
      kind: 'embed'
      name: string
      alias?: string
      hint?: string
      inner: boolean
      spread: boolean
      children: SelectItem[]
    }

const CAST = /^[A-Za-z_][A-Za-z0-9_]*(\[\])?$/
const ALIAS = /^([A-Za-z0-9_$]+|"(?:[^"\\]|\\.)+"):(?!:)/

export function parseSelect(raw: string | null): SelectItem[] {
  if (raw === null || raw.trim() === '') return [{ kind: 'star' }]
  return splitTopLevel(raw).map((part) => parseItem(part.trim(), raw))
}

function parseItem(part: string, raw: string): SelectItem {
  if (part === '') throw parseError(`"failed to parse select parameter (${raw})"`, 'empty item')
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
  const open = rest.indexOf('(')
  if (open >= 0 && rest.endsWith(')')) return parseEmbed(rest, open, alias, spread, raw)
  if (spread) throw parseError(`"failed to parse select parameter (${raw})"`, 'only embedded resources can be spread')
  const { field, rest: afterField } = parseField(rest)
  let cast: string | undefined
  let tail = afterField
  if (tail.startsWith('::')) {
    cast = tail.slice(2)
    tail = ''
    if (!CAST.test(cast)) throw parseError(`"failed to parse select parameter (${raw})"`, `invalid cast ${cast}`)
  }
  if (tail !== '') throw parseError(`"failed to parse select parameter (${raw})"`, `unexpected "${tail}"`)
  return { kind: 'field', field, alias, cast }
}

function parseEmbed(rest: string, open: number, alias: string | undefined, spread: boolean, raw: string): SelectItem {
  const head = rest.slice(0, open)
  const body = rest.slice(open + 1, -1)
  const [name, ...marks] = head.split('!')
  if (!/^[A-Za-z0-9_$]+$/.test(name)) throw parseError(`"failed to parse select parameter (${raw})"`, `bad name ${name}`)
  let inner = false
  let hint: string | undefined
  for (const mark of marks) {
    if (mark === 'inner') inner = true
    else if (mark === 'left') inner = false
    else if (/^[A-Za-z0-9_$]+$/.test(mark) && hint === undefined) hint = mark
    else throw parseError(`"failed to parse select parameter (${raw})"`, `unexpected "!${mark}"`)
  }
  const children = body.trim() === '' ? [] : splitTopLevel(body).map((p) => parseItem(p.trim(), raw))
  return { kind: 'embed', name, alias, hint, inner, spread, children }
}
