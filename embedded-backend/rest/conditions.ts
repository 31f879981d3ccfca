/**
 * Renders fields, filters and logic trees to SQL for one table alias. Columns (and computed fields, the
 * functions that take the table's row) are checked against the schema cache; every value becomes a
 * parameter cast to the column's type, so `id=eq.abc` on a uuid column is Postgres's own 22P02 (400),
 * never text spliced into SQL.
 */
import { RestError, parseError } from './errors'
import type { Condition } from './filter-parser'
import type { Field } from './grammar'
import { computedField, type SchemaCache, type Table } from './schema-cache'
import { functionName, ident, type Params } from './sql'

/** Postgres's 42703 as PostgREST's SQL causes it: `label` is the table's alias there (`messages_1` when embedded). */
export function unknownColumn(table: Table, name: string, label = table.name) {
  return new RestError(400, '42703', `column ${label}.${name} does not exist`)
}

/**
 * Where computed fields come from (the schema's functions, called with the row expression of the table),
 * and the node's embeds by key, which filters may test with `is.null` / `not.is.null`.
 */
export type RowScope = {
  schema: SchemaCache
  row: string
  embeds?: Map<string, EmbedRef>
  /** The node's spread to-one embeds by key: their join's alias (`order=clients(name)` on `...clients(name)`). */
  spreads?: Map<string, string>
  /**
   * The name PostgREST's statement gives this table, for error messages: its own name at the root, and
   * `<table>_<depth>` inside embeds (PostgREST aliases an embedded table so), e.g. "column messages_1.sum does not exist".
   */
  label?: string
}

/** An embed's lateral join: `v` is its JSON (an object or null for to-one, an array for to-many). */
export type EmbedRef = { join: string; toOne: boolean }

/** The SQL of a field (with its JSON path) and the type its values compare as. */
export function fieldSql(
  alias: string,
  table: Table,
  field: Field,
  params: Params,
  scope?: RowScope,
): { sql: string; type: string } {
  const column = table.columns.get(field.name)
  let sql: string
  let type: string
  if (column) {
    sql = `${alias}.${ident(field.name)}`
    type = column.type
  } else {
    const fn = scope ? computedField(scope.schema, table, field.name) : undefined
    if (!fn || !scope) throw unknownColumn(table, field.name, scope?.label)
    sql = `${functionName(fn)}(${scope.row})`
    type = fn.returnType
  }
  for (const step of field.path) {
    const key = /^-?\d+$/.test(step.key) ? `${params.add(step.key)}::int` : `${params.add(step.key)}::text`
    sql = `(${sql}${step.arrow}${key})`
    type = step.arrow === '->>' ? 'text' : type === 'json' ? 'json' : 'jsonb'
  }
  return { sql, type }
}

const COMPARE: Record<string, string> = {
  eq: '=',
  neq: '<>',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
  cs: '@>',
  cd: '<@',
  ov: '&&',
  sl: '<<',
  sr: '>>',
  // PostgREST's: nxr "does not extend to the right of" is &<, nxl "… to the left of" is &> (supabase-js's rangeLte/rangeGte).
  nxl: '&>',
  nxr: '&<',
  adj: '-|-',
}
const TEXT_MATCH: Record<string, string> = { like: 'like', ilike: 'ilike', match: '~', imatch: '~*' }
const TS_QUERY: Record<string, string> = {
  fts: 'to_tsquery',
  plfts: 'plainto_tsquery',
  phfts: 'phraseto_tsquery',
  wfts: 'websearch_to_tsquery',
}
const IS_VALUES: Record<string, string> = {
  null: 'null',
  not_null: 'not null',
  true: 'true',
  false: 'false',
  unknown: 'unknown',
}

/** A Postgres array literal of `values`, every element quoted. */
export function arrayLiteral(values: string[]): string {
  return `{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`
}

export function conditionSql(c: Condition, alias: string, table: Table, params: Params, scope?: RowScope): string {
  if (c.kind === 'logic') {
    const inner = c.children.map((child) => conditionSql(child, alias, table, params, scope)).join(` ${c.op} `)
    return c.negate ? `not (${inner})` : `(${inner})`
  }
  const embed =
    c.field.path.length === 0 && !table.columns.has(c.field.name) ? scope?.embeds?.get(c.field.name) : undefined
  if (embed) return embedNullSql(c, embed)
  const { sql: lhs, type } = fieldSql(alias, table, c.field, params, scope)
  const sql = operationSql(c, lhs, type, params)
  return c.negate ? `not (${sql})` : sql
}

/** `clients=not.is.null`: keeps rows that have (or, with is.null, lack) a related row. */
function embedNullSql(c: Extract<Condition, { kind: 'filter' }>, embed: EmbedRef): string {
  const name = c.field.name
  if (c.op !== 'is' || !['null', 'not_null'].includes(c.value.toLowerCase())) {
    throw new RestError(
      400,
      'PGRST120',
      `Bad operator on the '${name}' embedded resource`,
      'Only is null or not is null filters are allowed on embedded resources',
    )
  }
  const isNull = (c.value.toLowerCase() === 'null') !== c.negate
  const absent = embed.toOne ? `${embed.join}.v is null` : `coalesce(json_array_length(${embed.join}.v), 0) = 0`
  return isNull ? absent : `not (${absent})`
}

const likePattern = (value: string) => value.replace(/\*/g, '%')

function operationSql(c: Extract<Condition, { kind: 'filter' }>, lhs: string, type: string, params: Params): string {
  const { op, value } = c
  if (c.quantifier) {
    const list = c.list ?? []
    if (op in TEXT_MATCH) {
      const patterns = op === 'like' || op === 'ilike' ? list.map(likePattern) : list
      return `${lhs}::text ${TEXT_MATCH[op]} ${c.quantifier}(${params.add(arrayLiteral(patterns))}::text[])`
    }
    return `${lhs} ${COMPARE[op]} ${c.quantifier}(${params.add(arrayLiteral(list))}::text::${type}[])`
  }
  if (op in COMPARE) {
    // `ov.(a,b)` is an array overlap written as a list; on a range column `(1,5)` is already a range.
    const v =
      op === 'ov' && type.endsWith('[]') && value.startsWith('(') && value.endsWith(')')
        ? `{${value.slice(1, -1)}}`
        : value
    return `${lhs} ${COMPARE[op]} ${params.typed(v, type)}`
  }
  if (op in TEXT_MATCH) {
    const pattern = op === 'like' || op === 'ilike' ? likePattern(value) : value
    return `${lhs}::text ${TEXT_MATCH[op]} ${params.add(pattern)}::text`
  }
  if (op === 'is') {
    const v = IS_VALUES[value.toLowerCase()]
    if (!v)
      throw parseError(`"failed to parse filter (is.${value})"`, 'is. accepts null, not_null, true, false, unknown')
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
