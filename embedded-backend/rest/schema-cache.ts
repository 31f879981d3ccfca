/**
 * What PostgREST calls the schema cache: the tables, views, columns, keys, relationships and functions of
 * each exposed schema, read from the Postgres catalog. Every identifier in a request is checked against it
 * before it reaches SQL, and the column types it records are what request values are cast to.
 */
import type { Queryable } from '../db/database'

export const DEFAULT_SCHEMAS = ['public']

export type Column = {
  name: string
  type: string
  nullable: boolean
  hasDefault: boolean
  /** The default as an SQL expression, as PostgREST reads it (an identity's `nextval`, a domain's default). */
  defaultExpr?: string
}

export type Table = {
  schema: string
  name: string
  kind: 'table' | 'view'
  columns: Map<string, Column>
  primaryKey: string[]
  uniqueKeys: string[][]
}

/**
 * A foreign key, or the same key seen through views that expose its columns (PostgREST embeds through
 * views by following the view's columns back to their base tables). `table` holds the key, `refTable` is
 * referenced.
 */
export type ForeignKey = {
  name: string
  table: string
  columns: string[]
  refTable: string
  refColumns: string[]
  tableIsView: boolean
  refIsView: boolean
}

export type FunctionArg = { name: string; type: string; mode: 'in' | 'out' | 'variadic'; hasDefault: boolean }

export type FunctionDef = {
  schema: string
  name: string
  args: FunctionArg[]
  returnsSet: boolean
  /** `scalar` includes json/jsonb; `composite` has `columns` (and `table` when it is an exposed table's row). */
  shape: 'scalar' | 'composite' | 'void'
  returnType: string
  columns: Column[]
  table?: string
  volatile: boolean
  /** The table whose row type is the only required argument (a computed field or relationship), if any. */
  rowOf?: string
  /** The planner's row estimate (`ROWS n`): 1 makes a computed relationship to-one. */
  rows: number
  /**
   * Whether `/rpc` can call it, by PostgREST's rule: every argument named, or a single unnamed one of type
   * json, jsonb, text, xml or bytea (which receives the whole body). Others stay computed fields only.
   */
  callable: boolean
}

/** One exposed schema's objects. */
export type SchemaCache = {
  schema: string
  tables: Map<string, Table>
  foreignKeys: ForeignKey[]
  functions: Map<string, FunctionDef[]>
}

const TABLES_SQL = `
select n.nspname as schema, c.oid::int8 as oid, c.relname as table, c.relkind::text as kind, a.attnum::int as attnum,
  a.attname as column, format_type(a.atttypid, null) as type,
  not a.attnotnull as nullable, (a.atthasdef or a.attidentity <> '' or a.attgenerated <> '') as has_default,
  case
    when ty.typbasetype <> 0 and ad.adbin is null then pg_get_expr(ty.typdefaultbin, 0)
    when a.attidentity = 'd' then format('nextval(%L)', pg_get_serial_sequence(format('%I.%I', n.nspname, c.relname), a.attname))
    when a.attgenerated = 's' then null
    else pg_get_expr(ad.adbin, ad.adrelid)
  end as default_expr
from pg_class c
join pg_namespace n on n.oid = c.relnamespace
join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
join pg_type ty on ty.oid = a.atttypid
left join pg_attrdef ad on ad.adrelid = c.oid and ad.adnum = a.attnum
where n.nspname = any($1::text[]) and c.relkind in ('r', 'p', 'v', 'm', 'f')
order by n.nspname, c.relname, a.attnum`

const CONSTRAINTS_SQL = `
select con.conname as name, con.contype::text as type, n.nspname as schema, c.relname as table,
  fn.nspname as ref_schema, fc.relname as ref_table,
  array(select a.attname::text from unnest(con.conkey) with ordinality k(n, i)
        join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.n order by k.i) as columns,
  array(select a.attname::text from unnest(con.confkey) with ordinality k(n, i)
        join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.n order by k.i) as ref_columns
from pg_constraint con
join pg_class c on c.oid = con.conrelid
join pg_namespace n on n.oid = c.relnamespace
left join pg_class fc on fc.oid = con.confrelid
left join pg_namespace fn on fn.oid = fc.relnamespace
where n.nspname = any($1::text[]) and con.contype in ('p', 'u', 'f')
order by con.conrelid, con.conname`

/** The stored query tree of each view: its target list names the base column behind each view column. */
const VIEWS_SQL = `
select n.nspname as schema, c.relname as view, r.ev_action::text as action
from pg_rewrite r
join pg_class c on c.oid = r.ev_class
join pg_namespace n on n.oid = c.relnamespace
where n.nspname = any($1::text[]) and c.relkind in ('v', 'm') and r.rulename = '_RETURN'`

const FUNCTIONS_SQL = `
select n.nspname as schema, p.proname as name, p.proretset as returns_set, p.provolatile::text as volatility,
  p.prorows::float8 as rows, p.pronargdefaults as n_defaults,
  (p.proargnames is not null or p.pronargs = 0 or (p.pronargs = 1 and p.proargtypes[0] in
     ('bytea'::regtype, 'json'::regtype, 'jsonb'::regtype, 'text'::regtype, 'xml'::regtype))) as callable, format_type(p.prorettype, null) as return_type,
  rt.typtype::text as ret_typtype,
  case when rtn.nspname = n.nspname and rtc.relkind in ('r', 'p', 'v', 'm', 'f') then rtc.relname end as ret_table,
  (select ac.relname from pg_type at join pg_class ac on ac.oid = at.typrelid join pg_namespace an on an.oid = ac.relnamespace
     where p.pronargs >= 1 and at.oid = p.proargtypes[0] and an.nspname = n.nspname and ac.relkind in ('r', 'p', 'v', 'm', 'f')) as first_arg_table,
  coalesce((select json_agg(json_build_object('name', a.attname, 'type', format_type(a.atttypid, null)) order by a.attnum)
     from pg_attribute a where rt.typrelid <> 0 and a.attrelid = rt.typrelid and a.attnum > 0 and not a.attisdropped), '[]') as ret_columns,
  coalesce((select json_agg(json_build_object(
       'name', coalesce(p.proargnames[i], ''),
       'type', format_type(coalesce(p.proallargtypes[i], p.proargtypes[i - 1]), null),
       'mode', coalesce(p.proargmodes[i]::text, 'i')) order by i)
     from generate_series(1, coalesce(array_length(p.proallargtypes, 1), p.pronargs)) i), '[]') as args
from pg_proc p
join pg_namespace n on n.oid = p.pronamespace
join pg_type rt on rt.oid = p.prorettype
left join pg_class rtc on rtc.oid = rt.typrelid
left join pg_namespace rtn on rtn.oid = rtc.relnamespace
where n.nspname = any($1::text[]) and p.prokind = 'f'
  and rt.typname not in ('trigger', 'event_trigger', 'internal', 'language_handler', 'fdw_handler', 'index_am_handler', 'table_am_handler')`

type TableRow = {
  schema: string
  oid: string | number
  table: string
  kind: string
  attnum: number
  column: string
  type: string
  nullable: boolean
  has_default: boolean
  default_expr: string | null
}
type ConstraintRow = {
  name: string
  type: string
  schema: string
  table: string
  ref_schema: string | null
  ref_table: string | null
  columns: string[]
  ref_columns: string[]
}
type ViewRow = { schema: string; view: string; action: string }
type RawArg = { name: string; type: string; mode: string }
type FunctionRow = {
  schema: string
  name: string
  returns_set: boolean
  volatility: string
  rows: number
  n_defaults: number
  callable: boolean
  return_type: string
  ret_typtype: string
  ret_table: string | null
  first_arg_table: string | null
  ret_columns: unknown
  args: unknown
}

/** node-postgres parses json columns, PGlite too; both paths end as values here. */
const asJson = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T

/** Loads every schema in `schemas` (the `[api] schemas` of config.toml) in four catalog queries. */
export async function loadSchemaCaches(db: Queryable, schemas: string[]): Promise<Map<string, SchemaCache>> {
  const caches = new Map<string, SchemaCache>(
    schemas.map((s) => [s, { schema: s, tables: new Map(), foreignKeys: [], functions: new Map() }]),
  )
  // An array literal, so both drivers bind it the same way.
  const list = `{${schemas.map((s) => `"${s.replace(/["\\]/g, '\\$&')}"`).join(',')}}`
  const [tableRows, constraintRows, viewRows, functionRows] = await Promise.all([
    db.query<TableRow>(TABLES_SQL, [list]),
    db.query<ConstraintRow>(CONSTRAINTS_SQL, [list]),
    db.query<ViewRow>(VIEWS_SQL, [list]),
    db.query<FunctionRow>(FUNCTIONS_SQL, [list]),
  ]).then((rs) => rs.map((r) => r.rows) as [TableRow[], ConstraintRow[], ViewRow[], FunctionRow[]])

  /** Base columns by table oid and attribute number, to follow a view column back to its table. */
  const byOid = new Map<string, { schema: string; table: string; columns: Map<number, string> }>()
  for (const r of tableRows) {
    const cache = caches.get(r.schema)!
    let t = cache.tables.get(r.table)
    if (!t) {
      t = {
        schema: r.schema,
        name: r.table,
        kind: r.kind === 'r' || r.kind === 'p' ? 'table' : 'view',
        columns: new Map(),
        primaryKey: [],
        uniqueKeys: [],
      }
      cache.tables.set(r.table, t)
    }
    t.columns.set(r.column, {
      name: r.column,
      type: r.type,
      nullable: r.nullable,
      hasDefault: r.has_default,
      defaultExpr: r.default_expr ?? undefined,
    })
    const key = String(r.oid)
    if (!byOid.has(key)) byOid.set(key, { schema: r.schema, table: r.table, columns: new Map() })
    byOid.get(key)!.columns.set(Number(r.attnum), r.column)
  }
  for (const r of constraintRows) {
    const cache = caches.get(r.schema)!
    const t = cache.tables.get(r.table)
    if (r.type === 'f') {
      // Relationships stay within one schema, as each profile is its own API.
      if (r.ref_table && r.ref_schema === r.schema) {
        cache.foreignKeys.push({
          name: r.name,
          table: r.table,
          columns: r.columns,
          refTable: r.ref_table,
          refColumns: r.ref_columns,
          tableIsView: false,
          refIsView: false,
        })
      }
    } else if (t) {
      if (r.type === 'p') t.primaryKey = r.columns
      t.uniqueKeys.push(r.columns)
    }
  }
  for (const r of viewRows) addViewKeys(caches.get(r.schema)!, r, byOid)
  for (const r of functionRows) {
    const def = toFunctionDef(r)
    const cache = caches.get(r.schema)!
    cache.functions.set(def.name, [...(cache.functions.get(def.name) ?? []), def])
  }
  return caches
}

const TARGET_ENTRY = /:resno (\d+) :resname (\S+) :ressortgroupref \d+ :resorigtbl (\d+) :resorigcol (\d+)/g

/**
 * Gives a view the keys and foreign keys of its base table for the columns it exposes unchanged, as
 * PostgREST does, so `view?select=*,other(*)` embeds like the table would.
 */
function addViewKeys(
  cache: SchemaCache,
  row: ViewRow,
  byOid: Map<string, { schema: string; table: string; columns: Map<number, string> }>,
) {
  const view = cache.tables.get(row.view)
  if (!view) return
  const viewColumns = [...view.columns.keys()]
  /** base table -> (base column -> view column) */
  const origins = new Map<string, Map<string, string>>()
  for (const m of row.action.matchAll(TARGET_ENTRY)) {
    const [, resno, resname, tbl, col] = m
    if (tbl === '0' || viewColumns[Number(resno) - 1] !== resname) continue
    const base = byOid.get(tbl)
    const baseColumn = base?.columns.get(Number(col))
    if (!base || base.schema !== cache.schema || !baseColumn) continue
    if (!origins.has(base.table)) origins.set(base.table, new Map())
    origins.get(base.table)!.set(baseColumn, resname)
  }
  for (const [baseName, map] of origins) {
    const base = cache.tables.get(baseName)
    if (!base) continue
    const mapped = (cols: string[]) => (cols.every((c) => map.has(c)) ? cols.map((c) => map.get(c)!) : null)
    for (const key of base.uniqueKeys) {
      const m = mapped(key)
      if (!m) continue
      view.uniqueKeys.push(m)
      if (sameColumns(key, base.primaryKey) && view.primaryKey.length === 0) view.primaryKey = m
    }
    for (const fk of cache.foreignKeys.filter((k) => !k.tableIsView && !k.refIsView)) {
      if (fk.table === baseName) {
        const cols = mapped(fk.columns)
        if (cols) cache.foreignKeys.push({ ...fk, table: view.name, columns: cols, tableIsView: true })
      }
      if (fk.refTable === baseName) {
        const refCols = mapped(fk.refColumns)
        if (refCols) cache.foreignKeys.push({ ...fk, refTable: view.name, refColumns: refCols, refIsView: true })
      }
    }
  }
}

const sameColumns = (a: string[], b: string[]) => a.length === b.length && a.every((c) => b.includes(c))

function toFunctionDef(r: FunctionRow): FunctionDef {
  const raw = asJson<RawArg[]>(r.args)
  const inputs = raw.filter((a) => a.mode === 'i' || a.mode === 'b' || a.mode === 'v')
  const outs = raw.filter((a) => a.mode === 'o' || a.mode === 'b' || a.mode === 't')
  const firstDefault = inputs.length - r.n_defaults
  const args: FunctionArg[] = inputs.map((a, i) => ({
    name: a.name,
    type: a.type,
    mode: a.mode === 'v' ? 'variadic' : 'in',
    hasDefault: i >= firstDefault,
  }))
  const toColumn = (c: { name: string; type: string }): Column => ({
    name: c.name,
    type: c.type,
    nullable: true,
    hasDefault: false,
  })
  let shape: FunctionDef['shape'] = 'scalar'
  let columns: Column[] = []
  if (r.return_type === 'void') shape = 'void'
  else if (outs.length > 1 || (outs.length > 0 && r.return_type === 'record')) {
    shape = 'composite'
    columns = outs.map(toColumn)
  } else if (r.ret_typtype === 'c') {
    shape = 'composite'
    columns = asJson<{ name: string; type: string }[]>(r.ret_columns).map(toColumn)
  }
  const rowOf =
    r.first_arg_table && args.length >= 1 && args.slice(1).every((a) => a.hasDefault) ? r.first_arg_table : undefined
  return {
    schema: r.schema,
    name: r.name,
    args,
    returnsSet: r.returns_set,
    shape,
    returnType: r.return_type,
    columns,
    table: r.ret_table ?? undefined,
    volatile: r.volatility === 'v',
    rowOf,
    rows: Number(r.rows),
    callable: r.callable,
  }
}

/** Functions taking a row of `table` that return a scalar: columns computed on read (`select=full_name`). */
export function computedField(s: SchemaCache, table: Table, name: string): FunctionDef | undefined {
  return s.functions
    .get(name)
    ?.find(
      (f) => f.rowOf === table.name && !f.returnsSet && f.shape !== 'void' && !(f.shape === 'composite' && f.table),
    )
}
