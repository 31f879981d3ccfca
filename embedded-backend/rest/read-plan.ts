/**
 * Turns a parsed `select` tree plus the query's filters into one SQL statement, PostgREST style: each
 * embedded resource is a lateral join that builds its JSON in Postgres (`row_to_json` for to-one,
 * `json_agg` for to-many), so a request with embeds is still one statement and one round trip. Aggregates
 * (`amount.sum()`, `count()`) group by the node's other selected fields, as PostgREST does.
 */
import { conditionSql, fieldSql, type EmbedRef, type RowScope } from './conditions'
import type { Condition } from './filter-parser'
import { RestError, parseError } from './errors'
import { fieldKey, parseField, splitTopLevel } from './grammar'
import type { NodeParams, QueryBag } from './query-bag'
import { resolveRelationship, type Relationship } from './relationships'
import type { SchemaCache, Table } from './schema-cache'
import type { SelectItem } from './select-parser'
import { Aliases, Params, functionName, ident, qualified } from './sql'

export type ReadNode = {
  alias: string
  source: string
  /** Joins after the source (the junction of a many-to-many embed). */
  joins: string[]
  output: string[]
  /** Output keys in order (used when an embed is spread into its parent). */
  keys: string[]
  laterals: { sql: string; inner: boolean }[]
  where: string[]
  order: string[]
  /** Whether the node selects aggregates; `groupBy` then holds the expressions of its other fields. */
  aggregated: boolean
  groupBy: string[]
  /**
   * Aggregates selected inside a to-one spread, which PostgREST applies at the parent (grouped by the parent's
   * other fields): the node outputs each one's argument under its key, and the parent aggregates it.
   */
  hoisted: Map<string, Hoisted>
  /** The rendered SQL (rows, count), kept for a node that is never changed again (a cached plan's). */
  rendered?: { rows?: string; count?: string }
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
  /** `[api] db_aggregates_enabled`: aggregate functions in `select` (PostgREST's db-aggregates-enabled). */
  aggregates?: boolean
}

export function planRead(input: PlanInput): ReadNode {
  const usedPaths = new Set<string>([''])
  const node = planNode(input, input.table, input.source, input.items, '', 't0', usedPaths)
  for (const path of input.bag.keys()) {
    if (!usedPaths.has(path)) {
      throw new RestError(
        400,
        'PGRST108',
        `'${path}' is not an embedded resource in this request`,
        null,
        `Verify that '${path}' is included in the 'select' query parameter.`,
      )
    }
  }
  return node
}

export const aggregatesNotAllowed = () => new RestError(400, 'PGRST123', 'Use of aggregate functions is not allowed')

/** The row of `table` as a value for functions that take it: the alias itself when it is the table. */
function rowExpression(table: Table, source: string, alias: string): string {
  if (source === qualified(table)) return alias
  return `row(${[...table.columns.keys()].map((c) => `${alias}.${ident(c)}`).join(', ')})::${qualified(table)}`
}

type Shaped = { sql: string; key: string; aggregate: boolean }
/** An aggregate lifted out of a to-one spread: its function (`count` with no argument for `count()`) and cast. */
type Hoisted = { fn: string; star: boolean; cast?: string }

const featureNotImplemented = (details: string) => new RestError(400, 'PGRST127', 'Feature not implemented', details)

function planNode(
  input: PlanInput,
  table: Table,
  source: string,
  items: SelectItem[],
  path: string,
  alias: string,
  used: Set<string>,
  /** The node is a to-one spread: its aggregates are applied by its parent (Hoisted). */
  hoist = false,
): ReadNode {
  const { params, schema } = input
  const node = emptyNode(alias, source)
  const label = path ? `${table.name}_${path.split('.').length}` : table.name
  const embeds = new Map<string, EmbedRef>()
  const scope: RowScope = { schema, row: rowExpression(table, source, alias), embeds, label, spreads: new Map() }
  const own = input.bag.get(path)
  const b: NodeBuild = {
    input,
    table,
    node,
    scope,
    path,
    used,
    hoist,
    filtered: filteredFields(own),
    shaped: [],
    embedKeys: new Set(),
    embedOutputs: [],
    groupable: [],
  }
  for (const item of items) shapeItem(b, item)
  flush(b)
  if (node.aggregated) groupAggregated(b)
  if (own) {
    for (const c of own.conditions) node.where.push(conditionSql(c, alias, table, params, scope))
    if (own.order !== undefined) node.order = orderSql(own.order, alias, table, params, scope)
    node.limit = own.limit
    node.offset = own.offset
  }
  return node
}

/** What planning one node keeps between its select items. */
type NodeBuild = {
  input: PlanInput
  table: Table
  node: ReadNode
  scope: RowScope
  path: string
  used: Set<string>
  hoist: boolean
  /** The node's own top-level filtered names (an embed filtered by the parent joins even when it selects nothing). */
  filtered: Set<string>
  /** Items shaped since the last embed, output (and grouped) when the next embed or the end comes. */
  shaped: Shaped[]
  embedKeys: Set<string>
  /** Outputs that are embedded JSON: grouped (and so output) as jsonb, which has equality. */
  embedOutputs: number[]
  groupable: string[]
}

const emptyNode = (alias: string, source: string): ReadNode => ({
  alias,
  source,
  joins: [],
  output: [],
  keys: [],
  laterals: [],
  where: [],
  order: [],
  aggregated: false,
  groupBy: [],
  hoisted: new Map(),
})

function filteredFields(own: NodeParams | undefined): Set<string> {
  const filtered = new Set<string>()
  const collect = (c: Condition) =>
    c.kind === 'logic' ? c.children.forEach(collect) : c.field.path.length === 0 && filtered.add(c.field.name)
  own?.conditions.forEach(collect)
  return filtered
}

function shapeItem(b: NodeBuild, item: SelectItem) {
  if (item.kind === 'star') {
    for (const col of b.table.columns.keys()) {
      b.shaped.push({ sql: `${b.node.alias}.${ident(col)}`, key: col, aggregate: false })
    }
  } else if (item.kind === 'count') {
    checkAggregates(b.input)
    aggregate(b, item.alias ?? 'count', 'count', null, item.cast)
  } else if (item.kind === 'field') shapeField(b, item)
  else shapeEmbed(b, item)
}

function checkAggregates(input: PlanInput) {
  if (!input.aggregates) throw aggregatesNotAllowed()
}

/** An aggregate: here, or (in a to-one spread) its argument, for the parent to aggregate. */
function aggregate(b: NodeBuild, key: string, fn: string, arg: string | null, cast?: string) {
  if (b.hoist) {
    b.shaped.push({ sql: arg ?? 'null', key, aggregate: false })
    b.node.hoisted.set(key, { fn, star: arg === null, cast })
  } else b.shaped.push({ sql: withCast(`${fn}(${arg ?? '*'})`, cast), key, aggregate: true })
}

function shapeField(b: NodeBuild, item: Extract<SelectItem, { kind: 'field' }>) {
  const legacyCount =
    item.field.name === 'count' &&
    item.field.path.length === 0 &&
    !item.cast &&
    !item.aggregate &&
    !b.table.columns.has('count')
  if (legacyCount) {
    // `select=count` (and `messages(count)`) predates aggregate functions and stays available without them.
    b.shaped.push({ sql: 'count(*)', key: item.alias ?? 'count', aggregate: true })
    return
  }
  const { sql } = fieldSql(b.node.alias, b.table, item.field, b.input.params, b.scope)
  const value = item.cast ? `(${sql})::${item.cast}` : sql
  if (item.aggregate) {
    checkAggregates(b.input)
    aggregate(b, item.alias ?? item.aggregate, item.aggregate, value, item.aggCast)
  } else {
    b.shaped.push({ sql: value, key: item.alias ?? fieldKey(item.field), aggregate: false })
  }
}

function shapeEmbed(b: NodeBuild, item: Extract<SelectItem, { kind: 'embed' }>) {
  const { node } = b
  flush(b)
  const key = item.alias ?? item.name
  if (!item.spread && b.embedKeys.has(key)) {
    throw new RestError(400, '42712', `table name "${b.table.name}_${item.name}_1" specified more than once`)
  }
  b.embedKeys.add(key)
  const before = node.output.length
  const rel = planEmbed(b.input, b.table, b.scope, node, item, b.path, b.used, b.filtered.has(key), b.hoist)
  for (let i = before; i < node.output.length; i++) {
    // A spread to-one embed's columns group like the parent's own; JSON outputs group as jsonb.
    if (item.spread && rel.toOne) {
      if (!lifted(node.output[i])) b.groupable.push(node.output[i].replace(/ as "(?:[^"]|"")*"$/, ''))
    } else b.embedOutputs.push(i)
  }
}

/** Outputs the items shaped so far. */
function flush(b: NodeBuild) {
  for (const s of b.shaped) {
    b.node.output.push(`${s.sql} as ${ident(s.key)}`)
    b.node.keys.push(s.key)
    if (!s.aggregate) b.groupable.push(s.sql)
    else b.node.aggregated = true
  }
  b.shaped.length = 0
}

/** An aggregating node groups by its other outputs, its embedded JSON as jsonb. */
function groupAggregated({ node, embedOutputs, groupable }: NodeBuild) {
  for (const i of embedOutputs) {
    const expr = node.output[i].replace(/ as "(?:[^"]|"")*"$/, '')
    node.output[i] = `${expr}::jsonb as ${ident(node.keys[i])}`
    groupable.push(`${expr}::jsonb`)
  }
  node.groupBy = groupable
}

const withCast = (sql: string, cast?: string) => (cast ? `(${sql})::${cast}` : sql)
/** The mark on a parent's output that aggregates a to-one spread's hoisted value (never grouped by). */
const LIFTED = '/*lifted*/ '
const lifted = (output: string) => output.startsWith(LIFTED)

function planEmbed(
  input: PlanInput,
  table: Table,
  scope: RowScope,
  parent: ReadNode,
  item: Extract<SelectItem, { kind: 'embed' }>,
  path: string,
  used: Set<string>,
  filtered: boolean,
  hoisting: boolean,
): Relationship {
  const rel = resolveRelationship(input.schema, table, item.name, item.hint)
  const key = item.alias ?? item.name
  const childPath = path ? `${path}.${key}` : key
  used.add(childPath)
  const childAlias = input.aliases.next('t')
  const source = rel.fn ? `${functionName(rel.fn)}(${scope.row})` : qualified(rel.target)
  const spreadOne = item.spread && rel.toOne
  const child = planNode(input, rel.target, source, item.children, childPath, childAlias, used, spreadOne)
  joinToParent(input, rel, child, parent)
  const join = input.aliases.next('e')
  const s = input.aliases.next('_s')
  const embed: Embed = { item, key, child, parent, join, s }
  if (item.spread && rel.toOne) spreadToOne(embed, scope, hoisting)
  else if (item.spread) spreadToMany(embed)
  else embedJson(embed, rel, scope, filtered)
  return rel
}

/** One embed being planned: the select item and its key, the child's node, the parent's, and the two aliases. */
type Embed = {
  item: Extract<SelectItem, { kind: 'embed' }>
  key: string
  child: ReadNode
  parent: ReadNode
  /** The lateral join's alias in the parent. */
  join: string
  /** The child's rows' alias inside the lateral. */
  s: string
}

/** The child's rows are its parent row's: through the junction of a many-to-many, else by the foreign key. */
function joinToParent(input: PlanInput, rel: Relationship, child: ReadNode, parent: ReadNode) {
  const childAlias = child.alias
  if (rel.junction) {
    const j = rel.junction
    const jAlias = input.aliases.next('j')
    const on = j.toTarget.columns
      .map((c, i) => `${jAlias}.${ident(c)} = ${childAlias}.${ident(j.toTarget.refColumns[i])}`)
      .join(' and ')
    child.joins.push(`inner join ${qualified(j.table)} as ${jAlias} on ${on}`)
    j.toParent.columns.forEach((c, i) =>
      child.where.unshift(`${jAlias}.${ident(c)} = ${parent.alias}.${ident(j.toParent.refColumns[i])}`),
    )
  } else {
    rel.targetColumns.forEach((col, i) => {
      child.where.unshift(`${childAlias}.${ident(col)} = ${parent.alias}.${ident(rel.parentColumns[i])}`)
    })
  }
}

/** A spread to-one embed: its columns (and hoisted aggregates) become the parent's own. */
function spreadToOne({ item, key, child, parent, join, s }: Embed, scope: RowScope, hoisting: boolean) {
  parent.laterals.push({
    sql: `left join lateral (select true as "_present", ${s}.* from (${renderNode(child)}) ${s}) as ${join} on true`,
    inner: item.inner,
  })
  if (item.inner) parent.where.push(`${join}."_present"`)
  scope.spreads?.set(key, join)
  for (const k of child.keys) parent.keys.push(k)
  parent.output.push(...spreadOutputs(child, join, parent, hoisting))
}

/** PostgREST 13: a spread to-many embed gives each of its columns as an array. */
function spreadToMany({ item, child, parent, join, s }: Embed) {
  if (child.aggregated || child.hoisted.size) {
    throw featureNotImplemented('Aggregates are not implemented for one-to-many or many-to-many spreads.')
  }
  const columns = child.keys.map((k) => `json_agg(${s}.${ident(k)}) as ${ident(k)}`)
  parent.laterals.push({
    sql: `left join lateral (select count(*) as "_n"${columns.map((c) => `, ${c}`).join('')} from (${renderNode(child)}) ${s}) as ${join} on true`,
    inner: item.inner,
  })
  if (item.inner) parent.where.push(`${join}."_n" > 0`)
  for (const k of child.keys) {
    parent.output.push(`coalesce(${join}.${ident(k)}, '[]'::json) as ${ident(k)}`)
    parent.keys.push(k)
  }
}

/** An embed as one JSON value under its key: an object (to-one) or an array (to-many). */
function embedJson(
  { item, key, child, parent, join, s }: Embed,
  rel: Relationship,
  scope: RowScope,
  filtered: boolean,
) {
  // `clients()` selects nothing; it still joins when it filters the parent (`!inner`, `clients=not.is.null`).
  if (item.children.length === 0 && !item.inner && !filtered) return
  if (item.children.length === 0) child.output.push('1 as "_one"')
  scope.embeds?.set(key, { join, toOne: rel.toOne })
  const agg = rel.toOne ? `row_to_json(${s})` : `coalesce(json_agg(${s}), '[]'::json)`
  const limitOne = rel.toOne ? ' limit 1' : ''
  parent.laterals.push({
    sql: `left join lateral (select ${agg} as v from (${renderNode(child)}) ${s}${limitOne}) as ${join} on true`,
    inner: item.inner,
  })
  if (item.inner) parent.where.push(rel.toOne ? `${join}.v is not null` : `json_array_length(${join}.v) > 0`)
  if (item.children.length > 0) {
    parent.output.push(`${join}.v as ${ident(key)}`)
    parent.keys.push(key)
  }
}

/**
 * The outputs a to-one spread gives its parent: its columns, and its hoisted aggregates applied here (or passed
 * further up when the parent is itself a to-one spread).
 */
function spreadOutputs(child: ReadNode, join: string, parent: ReadNode, hoisting: boolean): string[] {
  return child.keys.map((k) => {
    const value = `${join}.${ident(k)}`
    const h = child.hoisted.get(k)
    if (!h) return `${value} as ${ident(k)}`
    if (hoisting) {
      parent.hoisted.set(k, h)
      return `${value} as ${ident(k)}`
    }
    parent.aggregated = true
    return `${LIFTED}${withCast(`${h.fn}(${h.star ? '*' : value})`, h.cast)} as ${ident(k)}`
  })
}

function orderSql(raw: string, alias: string, table: Table, params: Params, scope: RowScope): string[] {
  return splitTopLevel(raw).map((term) => {
    const related = /^([A-Za-z0-9_$]+)\((.+)\)((?:\.[a-z]+)*)$/.exec(term.trim())
    if (related && !table.columns.has(related[1])) return relatedOrderSql(related, raw, table, params, scope)
    const { field, rest } = parseField(term.trim())
    if (rest !== '' && !rest.startsWith('.'))
      throw parseError(`"failed to parse order (${raw})"`, `unexpected "${rest}"`)
    return `${fieldSql(alias, table, field, params, scope).sql}${modifiers(rest.replace(/^\./, ''), raw)}`
  })
}

/** `asc|desc` and `nullsfirst|nullslast` after an order term. */
function modifiers(rest: string, raw: string): string {
  let dir = ''
  let nulls = ''
  for (const m of rest === '' ? [] : rest.split('.')) {
    if (m === 'asc' || m === 'desc') dir = ` ${m}`
    else if (m === 'nullsfirst' || m === 'nullslast') nulls = m === 'nullsfirst' ? ' nulls first' : ' nulls last'
    else throw parseError(`"failed to parse order (${raw})"`, `unexpected "${m}"`)
  }
  return `${dir}${nulls}`
}

/**
 * `order=clients(name).desc`: orders by a column of a to-one embed (PGRST118 for to-many, PGRST108 when
 * it is not embedded). The value is read back from the embed's JSON as jsonb, which orders numbers as
 * numbers and strings as text; the column must be among the embed's selected ones.
 */
function relatedOrderSql(m: RegExpExecArray, raw: string, table: Table, params: Params, scope: RowScope): string {
  const [, name, inner, mods] = m
  const spread = scope.spreads?.get(name)
  if (spread !== undefined) {
    const { field, rest } = parseField(inner)
    if (rest !== '' || field.path.length) throw parseError(`"failed to parse order (${raw})"`, `unexpected "${rest}"`)
    return `${spread}.${ident(field.name)}${modifiers(mods.replace(/^\./, ''), raw)}`
  }
  const embed = scope.embeds?.get(name)
  if (!embed) {
    throw new RestError(
      400,
      'PGRST108',
      `'${name}' is not an embedded resource in this request`,
      null,
      `Verify that '${name}' is included in the 'select' query parameter.`,
    )
  }
  if (!embed.toOne) {
    throw new RestError(
      400,
      'PGRST118',
      `A related order on '${name}' is not possible`,
      `'${table.name}' and '${name}' do not form a many-to-one or one-to-one relationship`,
    )
  }
  const { field, rest } = parseField(inner)
  if (rest !== '') throw parseError(`"failed to parse order (${raw})"`, `unexpected "${rest}"`)
  let sql = `nullif(${embed.join}.v::jsonb -> ${params.add(field.name)}::text, 'null'::jsonb)`
  for (const step of field.path)
    sql = `(${sql}${step.arrow}${/^-?\d+$/.test(step.key) ? `${params.add(step.key)}::int` : `${params.add(step.key)}::text`})`
  return `${sql}${modifiers(mods.replace(/^\./, ''), raw)}`
}

/** The rows of a node (or just `1` per row, for counting). */
export function renderNode(node: ReadNode, forCount = false): string {
  const memo = node.rendered
  if (memo) return forCount ? (memo.count ??= render(node, true)) : (memo.rows ??= render(node, false))
  return render(node, forCount)
}

/** Marks a node as final: its SQL is rendered once and reused (plan-cache.ts). */
export function memoized(node: ReadNode): ReadNode {
  node.rendered = {}
  return node
}

function render(node: ReadNode, forCount: boolean): string {
  // Counting an aggregating node counts its groups, so it keeps its outputs and grouping.
  const cols = forCount && !node.aggregated ? '1' : node.output.join(', ')
  const laterals = node.laterals
    .filter((l) => !forCount || l.inner || node.aggregated)
    .map((l) => ` ${l.sql}`)
    .join('')
  const joins = node.joins.map((j) => ` ${j}`).join('')
  let sql = `select ${cols} from ${node.source} as ${node.alias}${joins}${laterals}`
  if (node.where.length) sql += ` where ${node.where.join(' and ')}`
  if (node.groupBy.length) sql += ` group by ${node.groupBy.join(', ')}`
  if (forCount) return sql
  if (node.order.length) sql += ` order by ${node.order.join(', ')}`
  if (node.limit !== undefined) sql += ` limit ${node.limit}`
  if (node.offset !== undefined && node.offset > 0) sql += ` offset ${node.offset}`
  return sql
}
