/**
 * Shared pieces of PostgREST's query-string grammar: splitting on top-level commas (outside parentheses
 * and double quotes), field names with JSON paths (`data->a->>b`), and quoted values.
 */
import { parseError } from './errors'

/**
 * Splits `s` on `sep` where it is not inside (...), {...}, [...] or "...". `parensOnly` is for in.(...)
 * lists, where braces are ordinary characters of a value.
 */
export function splitTopLevel(s: string, sep = ',', parensOnly = false): string[] {
  const opens = parensOnly ? '(' : '({['
  const closes = parensOnly ? ')' : ')}]'
  const parts: string[] = []
  let depth = 0
  let quoted = false
  let start = 0
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]
    if (quoted) {
      if (ch === '\\') i++
      else if (ch === '"') quoted = false
    } else if (ch === '"') quoted = true
    else if (opens.includes(ch)) depth++
    else if (closes.includes(ch)) {
      depth--
      if (depth < 0) throw parseError(`"failed to parse ${s}"`, `unexpected ")"`)
    } else if (ch === sep && depth === 0) {
      parts.push(s.slice(start, i))
      start = i + 1
    }
  }
  if (depth !== 0 || quoted) throw parseError(`"failed to parse ${s}"`, 'unbalanced parentheses or quotes')
  parts.push(s.slice(start))
  return parts
}

/** `"a,b"` → `a,b` (backslash escapes the next character); unquoted values stay as they are. */
export function unquote(value: string): string {
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    return value.slice(1, -1).replace(/\\(.)/g, '$1')
  }
  return value
}

export type JsonStep = { arrow: '->' | '->>'; key: string }
export type Field = { name: string; path: JsonStep[] }

const NAME = /^(?:"((?:[^"\\]|\\.)+)"|([^\s"'(),:.!>-]+(?:-(?!>)[^\s"'(),:.!>-]*)*))/

/** Parses `col`, `"odd col"`, `col->a->>b`; returns the field and the rest of the string. */
export function parseField(s: string): { field: Field; rest: string } {
  const m = NAME.exec(s)
  if (!m) throw parseError(`"failed to parse field ${s}"`)
  const name = m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2]
  let rest = s.slice(m[0].length)
  const path: JsonStep[] = []
  while (rest.startsWith('->')) {
    const arrow = rest.startsWith('->>') ? '->>' : '->'
    rest = rest.slice(arrow.length)
    const k = NAME.exec(rest) ?? /^-?\d+/.exec(rest)
    if (!k) throw parseError(`"failed to parse json path ${s}"`)
    path.push({ arrow, key: k[1] !== undefined ? k[1] : k[0] })
    rest = rest.slice(k[0].length)
  }
  return { field: { name, path }, rest }
}

/** The key PostgREST gives a selected field: the last JSON key, else the column name. */
export function fieldKey(field: Field): string {
  return field.path.length ? field.path[field.path.length - 1].key : field.name
}
