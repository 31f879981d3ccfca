/**
 * Renders fields, filters and logic trees to SQL for one table alias. Columns are checked against the
 * schema cache; every value becomes a parameter cast to the column's type, so `id=eq.abc` on a uuid
 * column is Postgres's own 22P02 (400), never text spliced into SQL.
 */
import { RestError, parseError } from './errors'
import type { Condition } from './filter-parser'
import type { Field } from './grammar'
import type { Table } from './schema-cache'
import { ident, type Params } from './sql'

export function unknownColumn(table: Table, name: string) {
  return new RestError(400, '42703', `column ${table.name}.${name} does not exist`)
}

/** The SQL of a field (with its JSON path) and the type its values compare as. */
export function fieldSql(alias: string, table: Table, field: Field, params: Params): { sql: string; type: string } {
  const column = table.columns.get(field.name)
  if (!column) throw unknownColumn(table, field.name)
  let sql = `${alias}.${ident(field.name)}`
  let type = column.type
  for (const step of field.path) {
    const key = /^-?\d+$/.test(step.key) ? `${params.add(step.key)}::int` : `${params.add(step.key)}::text`
    sql = `(${sql}${step.arrow}${key})`
    type = step.arrow === '->>' ? 'text' : type === 'json' ? 'json' : 'jsonb'
  }
  return { sql, type }
}

const COMPARE: Record<string, string> = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=', cs: '@>', cd: '<@', ov: '&&' }
const TEXT_MATCH: Record<string, string> = { like: 'like', ilike: 'ilike', match: '~', imatch: '~*' }
const TS_QUERY: Record<string, string> = { fts: 'to_tsquery', plfts: 'plainto_tsquery', phfts: 'phraseto_tsquery', wfts: 'websearch_to_tsquery' }
const IS_VALUES: Record<string, string> = { null: 'null', not_null: 'not null', true: 'true', false: 'false', unknown: 'unknown' }

export function conditionSql(c: Condition, alias: string, table: Table, params: Params): string {
  if (c.kind === 'logic') {
    const inner = c.children.map((child) => conditionSql(child, alias, table, params)).join(` ${c.op} `)
    return c.negate ? `not (${inner})` : `(${inner})`
  }
  const { sql: lhs, type } = fieldSql(alias, table, c.field, params)
  const sql = operationSql(c, lhs, type, params)
  return c.negate ? `not (${sql})` : sql
}

function operationSql(c: Extract<Condition, { kind: 'filter' }>, lhs: string, type: string, params: Params): string {
  const { op, value } = c
  if (op in COMPARE) {
    const v = op === 'ov' && value.startsWith('(') && value.endsWith(')') ? `{${value.slice(1, -1)}}` : value
    return `${lhs} ${COMPARE[op]} ${params.typed(v, type)}`
  }
  if (op in TEXT_MATCH) {
    const pattern = op === 'like' || op === 'ilike' ? value.replace(/\*/g, '%') : value
    return `${lhs}::text ${TEXT_MATCH[op]} ${params.add(pattern)}::text`
  }
  if (op === 'is') {
    const v = IS_VALUES[value.toLowerCase()]
    if (!v) throw parseError(`"failed to parse filter (is.${value})"`, 'is. accepts null, not_null, true, false, unknown')
    return `${lhs} is ${v}`
  }
  if (op === 'isdistinct') return `${lhs} is distinct from ${params.typed(value, type)}`
  if (op === 'in') {
    const list = c.list ?? []
    return list.length === 0 ? 'false' : `${lhs} in (${list.map((v) => params.typed(v, type)).join(', ')})`
  }
  const lang = c.language ? `${params.add(c.language)}::text::regconfig, ` : ''
  const vector = type === 'tsvector' ? lhs : `to_tsvector(${lang}${lhs}::text)`
  return `${vector} @@ ${TS_QUERY[op]}(${lang}${params.add(value)}::text)`
}
