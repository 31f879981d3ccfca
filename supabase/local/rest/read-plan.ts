/**
 * Turns a parsed `select` tree plus the query's filters into one SQL statement, PostgREST style: each
 * embedded resource is a lateral join that builds its JSON in Postgres (`row_to_json` for to-one,
 * `json_agg` for to-many), so a request with embeds is still one statement and one round trip.
 */
import { conditionSql, fieldSql, unknownColumn } from './conditions'
import { RestError, parseError } from './errors'
import { fieldKey, parseField, splitTopLevel } from './grammar'
import type { QueryBag } from './query-bag'
import { resolveRelationship } from './relationships'
import type { SchemaCache, Table } from './schema-cache'
import type { SelectItem } from './select-parser'
import { Aliases, Params, ident } from './sql'

export type ReadNode = {
  alias: string
  source: string
  output: string[]
  /** Output keys in order (used when a to-one embed is spread into its parent). */
  keys: string[]
  laterals: { sql: string; inner: boolean }[]
  where: string[]
  order: string[]
  limit?: number
  offset?: number
}

export type PlanInput = {
  schema: SchemaCache
  table: Table
  source: string
  items: SelectItem[]
  bag: QueryBag
  params: Params
  aliases: Aliases
}

export function planRead(input: PlanInput): ReadNode {
  const usedPaths = new Set<string>([''])
  const node = planNode(input, input.table, input.source, input.items, '', 't0', usedPaths)
  for (const path of input.bag.keys()) {
    if (!usedPaths.has(path)) {
      throw new RestError(400, 'PGRST108', `'${path}' is not an embedded resource in this request`, null,
        `Verify that '${path}' is included in the 'select' query parameter.`)
    }
  }
  return node
}

function planNode(input: PlanInput, table: Table, source: string, items: SelectItem[], path: string, alias: string, used: Set<string>): ReadNode {
  const { params } = input
  const node: ReadNode = { alias, source, output: [], keys: [], laterals: [], where: [], order: [] }
  for (const item of items) {
    if (item.kind === 'star') {
      for (const col of table.columns.keys()) {
        node.output.push(`${alias}.${ident(col)} as ${ident(col)}`)
        node.keys.push(col)
      }
    } else if (item.kind === 'field') {
      const { sql } = fieldSql(alias, table, item.field, params)
      const key = item.alias ?? fieldKey(item.field)
      node.output.push(`${item.cast ? `(${sql})::${item.cast}` : sql} as ${ident(key)}`)
      node.keys.push(key)
    } else {
      planEmbed(input, table, node, item, path, used)
    }
  }
  const own = input.bag.get(path)
  if (own) {
    for (const c of own.conditions) node.where.push(conditionSql(c, alias, table, params))
    if (own.order !== undefined) node.order = orderSql(own.order, alias, table, params)
    node.limit = own.limit
    node.offset = own.offset
  }
  return node
}

function planEmbed(input: PlanInput, table: Table, parent: ReadNode, item: Extract<SelectItem, { kind: 'embed' }>, path: string, used: Set<string>) {
  const rel = resolveRelationship(input.schema, table, item.name, item.hint)
  const key = item.alias ?? item.name
  const childPath = path ? `${path}.${key}` : key
  used.add(childPath)
  const childAlias = input.aliases.next('t')
  const child = planNode(input, rel.target, `"public".${ident(rel.target.name)}`, item.children, childPath, childAlias, used)
  rel.targetColumns.forEach((col, i) => {
    child.where.unshift(`${childAlias}.${ident(col)} = ${parent.alias}.${ident(rel.parentColumns[i])}`)
  })
  const join = input.aliases.next('e')
  const s = input.aliases.next('_s')
  if (item.spread) {
    if (!rel.toOne) throw parseError(`"failed to parse select parameter"`, `'${key}' is a to-many relationship and cannot be spread`)
    parent.laterals.push({ sql: `left join lateral (select true as "_present", ${s}.* from (${renderNode(child)}) ${s}) as ${join} on true`, inner: item.inner })
    if (item.inner) parent.where.push(`${join}."_present"`)
    for (const k of child.keys) {
      parent.output.push(`${join}.${ident(k)} as ${ident(k)}`)
      parent.keys.push(k)
    }
    return
  }
  const agg = rel.toOne ? `row_to_json(${s})` : `coalesce(json_agg(${s}), '[]'::json)`
  const limitOne = rel.toOne ? ' limit 1' : ''
  parent.laterals.push({ sql: `left join lateral (select ${agg} as v from (${renderNode(child)}) ${s}${limitOne}) as ${join} on true`, inner: item.inner })
  if (item.inner) parent.where.push(rel.toOne ? `${join}.v is not null` : `json_array_length(${join}.v) > 0`)
  if (item.children.length > 0) {
    parent.output.push(`${join}.v as ${ident(key)}`)
    parent.keys.push(key)
  }
}

function orderSql(raw: string, alias: string, table: Table, params: import('./sql').Params): string[] {
  return splitTopLevel(raw).map((term) => {
    const { field, rest } = parseField(term.trim())
    if (!table.columns.has(field.name)) throw unknownColumn(table, field.name)
    const mods = rest === '' ? [] : rest.replace(/^\./, '').split('.')
    if (rest !== '' && !rest.startsWith('.')) throw parseError(`"failed to parse order (${raw})"`, `unexpected "${rest}"`)
    let dir = ''
    let nulls = ''
    for (const m of mods) {
      if (m === 'asc' || m === 'desc') dir = ` ${m}`
      else if (m === 'nullsfirst' || m === 'nullslast') nulls = m === 'nullsfirst' ? ' nulls first' : ' nulls last'
      else throw parseError(`"failed to parse order (${raw})"`, `unexpected "${m}"`)
    }
    return `${fieldSql(alias, table, field, params).sql}${dir}${nulls}`
  })
}

/** The rows of a node (or just `1` per row, for counting). */
export function renderNode(node: ReadNode, forCount = false): string {
  const cols = forCount ? '1' : node.output.join(', ')
  const laterals = node.laterals.filter((l) => !forCount || l.inner).map((l) => ` ${l.sql}`).join('')
  let sql = `select ${cols} from ${node.source} as ${node.alias}${laterals}`
  if (node.where.length) sql += ` where ${node.where.join(' and ')}`
  if (forCount) return sql
  if (node.order.length) sql += ` order by ${node.order.join(', ')}`
  if (node.limit !== undefined) sql += ` limit ${node.limit}`
  if (node.offset !== undefined && node.offset > 0) sql += ` offset ${node.offset}`
  return sql
}
