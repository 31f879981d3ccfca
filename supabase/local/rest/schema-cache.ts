/**
 * What PostgREST calls the schema cache: the tables, views, columns, keys and functions of the exposed
 * schema, read from the Postgres catalog. Every identifier in a request is checked against it before it
 * reaches SQL, and the column types it records are what request values are cast to.
 */
import type { Queryable } from '../db/database'

export const EXPOSED_SCHEMA = 'public'

export type Column = { name: string; type: string; nullable: boolean; hasDefault: boolean }

export type Table = {
  name: string
  kind: 'table' | 'view'
  columns: Map<string, Column>
  primaryKey: string[]
  uniqueKeys: string[][]
}

export type ForeignKey = { name: string; table: string; columns: string[]; refTable: string; refColumns: string[] }

export type FunctionArg = { name: string; type: string; mode: 'in' | 'out' | 'variadic'; hasDefault: boolean }

export type FunctionDef = {
  name: string
  args: FunctionArg[]
  returnsSet: boolean
  /** `scalar` includes json/jsonb; `composite` has `columns` (and `table` when it is a public table's row). */
  shape: 'scalar' | 'composite' | 'void'
  returnType: string
  columns: Column[]
  table?: string
  volatile: boolean
}

export type SchemaCache = {
  tables: Map<string, Table>
  foreignKeys: ForeignKey[]
  functions: Map<string, FunctionDef[]>
}

const TABLES_SQL = `
select c.relname as table, c.relkind::text as kind, a.attname as column, format_type(a.atttypid, null) as type,
  not a.attnotnull as nullable, (a.atthasdef or a.attidentity <> '' or a.attgenerated <> '') as has_default
from pg_class c
join pg_namespace n on n.oid = c.relnamespace
join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
where n.nspname = '${EXPOSED_SCHEMA}' and c.relkind in ('r', 'p', 'v', 'm', 'f')
order by c.relname, a.attnum`

const CONSTRAINTS_SQL = `
select con.conname as name, con.contype::text as type, c.relname as table, fc.relname as ref_table,
  array(select a.attname::text from unnest(con.conkey) with ordinality k(n, i)
        join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.n order by k.i) as columns,
  array(select a.attname::text from unnest(con.confkey) with ordinality k(n, i)
        join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.n order by k.i) as ref_columns
from pg_constraint con
join pg_class c on c.oid = con.conrelid
join pg_namespace n on n.oid = c.relnamespace
left join pg_class fc on fc.oid = con.confrelid
left join pg_namespace fn on fn.oid = fc.relnamespace
where n.nspname = '${EXPOSED_SCHEMA}' and con.contype in ('p', 'u', 'f')
  and (con.contype <> 'f' or fn.nspname = '${EXPOSED_SCHEMA}')`

const FUNCTIONS_SQL = `
select p.proname as name, p.proretset as returns_set, p.provolatile::text as volatility,
  p.pronargdefaults as n_defaults, format_type(p.prorettype, null) as return_type, rt.typtype::text as ret_typtype,
  case when rtn.nspname = '${EXPOSED_SCHEMA}' and rtc.relkind in ('r', 'p', 'v', 'm', 'f') then rtc.relname end as ret_table,
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
where n.nspname = '${EXPOSED_SCHEMA}' and p.prokind = 'f'
  and rt.typname not in ('trigger', 'event_trigger', 'internal', 'language_handler', 'fdw_handler', 'index_am_handler', 'table_am_handler')`

type TableRow = { table: string; kind: string; column: string; type: string; nullable: boolean; has_default: boolean }
type ConstraintRow = { name: string; type: string; table: string; ref_table: string | null; columns: string[]; ref_columns: string[] }
type RawArg = { name: string; type: string; mode: string }
type FunctionRow = {
  name: string
  returns_set: boolean
  volatility: string
  n_defaults: number
  return_type: string
  ret_typtype: string
  ret_table: string | null
  ret_columns: unknown
  args: unknown
}

/** node-postgres parses json columns, PGlite too; both paths end as values here. */
const asJson = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T

export async function loadSchemaCache(db: Queryable): Promise<SchemaCache> {
  const tables = new Map<string, Table>()
  for (const r of (await db.query<TableRow>(TABLES_SQL)).rows) {
    let t = tables.get(r.table)
    if (!t) {
      t = { name: r.table, kind: r.kind === 'r' || r.kind === 'p' ? 'table' : 'view', columns: new Map(), primaryKey: [], uniqueKeys: [] }
      tables.set(r.table, t)
    }
    t.columns.set(r.column, { name: r.column, type: r.type, nullable: r.nullable, hasDefault: r.has_default })
  }
  const foreignKeys: ForeignKey[] = []
  for (const r of (await db.query<ConstraintRow>(CONSTRAINTS_SQL)).rows) {
    const t = tables.get(r.table)
    if (r.type === 'f' && r.ref_table) {
      foreignKeys.push({ name: r.name, table: r.table, columns: r.columns, refTable: r.ref_table, refColumns: r.ref_columns })
    } else if (t) {
      if (r.type === 'p') t.primaryKey = r.columns
      t.uniqueKeys.push(r.columns)
    }
  }
  const functions = new Map<string, FunctionDef[]>()
  for (const r of (await db.query<FunctionRow>(FUNCTIONS_SQL)).rows) {
    const def = toFunctionDef(r)
    functions.set(def.name, [...(functions.get(def.name) ?? []), def])
  }
  return { tables, foreignKeys, functions }
}

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
  const toColumn = (c: { name: string; type: string }): Column => ({ name: c.name, type: c.type, nullable: true, hasDefault: false })
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
  return {
    name: r.name,
    args,
    returnsSet: r.returns_set,
    shape,
    returnType: r.return_type,
    columns,
    table: r.ret_table ?? undefined,
    volatile: r.volatility === 'v',
  }
}
