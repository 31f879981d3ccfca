/**
 * Reads what `supabase gen types typescript` reads from the Postgres catalog for schema public: tables and
 * views with their columns, foreign keys, the functions the API roles may call, and enums.
 */
import type { Queryable } from './database'

export type Column = {
  name: string
  type: string
  elementType: string | null
  nullable: boolean
  hasDefault: boolean
  generated: boolean
  enumName: string | null
}
export type Relationship = {
  foreignKeyName: string
  columns: string[]
  isOneToOne: boolean
  referencedRelation: string
  referencedColumns: string[]
}
export type Relation = { name: string; kind: 'table' | 'view'; columns: Column[]; relationships: Relationship[] }
export type FunctionArg = { name: string; type: string; elementType: string | null; optional: boolean }
export type FunctionInfo = {
  name: string
  args: FunctionArg[]
  returnType: string
  returnElementType: string | null
  returnsSet: boolean
  tableColumns: FunctionArg[] | null
}
export type Catalog = { relations: Relation[]; functions: FunctionInfo[]; enums: { name: string; values: string[] }[] }

const columnsSql = `
  select c.relname as relation, case when c.relkind in ('v', 'm') then 'view' else 'table' end as kind,
    a.attname as name, t.typname as type, et.typname as element_type, not a.attnotnull as nullable,
    a.atthasdef and a.attgenerated = '' as has_default, a.attgenerated <> '' or a.attidentity = 'a' as generated,
    case when coalesce(et.typtype, t.typtype) = 'e' then coalesce(et.typname, t.typname) end as enum_name
  from pg_class c
  join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
  join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
  join pg_type t on t.oid = a.atttypid
  left join pg_type et on et.oid = t.typelem and t.typcategory = 'A'
  where c.relkind in ('r', 'p', 'v', 'm')
  order by c.relname, a.attname`

const relationshipsSql = `
  select con.conname as name, src.relname as relation, dst.relname as referenced,
    array(select a.attname from unnest(con.conkey) with ordinality k(n, i)
          join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.n order by k.i)::text[] as columns,
    array(select a.attname from unnest(con.confkey) with ordinality k(n, i)
          join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.n order by k.i)::text[] as referenced_columns,
    exists (select 1 from pg_constraint u where u.conrelid = con.conrelid and u.contype in ('p', 'u')
            and (select array_agg(x order by x) from unnest(u.conkey) x) = (select array_agg(x order by x) from unnest(con.conkey) x))
      as one_to_one
  from pg_constraint con
  join pg_class src on src.oid = con.conrelid
  join pg_class dst on dst.oid = con.confrelid
  where con.contype = 'f' and src.relnamespace = 'public'::regnamespace and dst.relnamespace = 'public'::regnamespace
  order by src.relname, con.conname`

const functionsSql = `
  select p.proname as name, p.proretset as returns_set, rt.typname as return_type, ret.typname as return_element_type,
    coalesce(p.proargnames, '{}') as arg_names, coalesce(p.proargmodes::text[], '{}') as arg_modes,
    array(select t.typname from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality x(oid, i)
          join pg_type t on t.oid = x.oid order by x.i)::text[] as arg_types,
    array(select coalesce(et.typname, '') from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality x(oid, i)
          join pg_type t on t.oid = x.oid left join pg_type et on et.oid = t.typelem and t.typcategory = 'A'
          order by x.i)::text[] as arg_element_types,
    p.pronargdefaults as default_count, p.pronargs as in_count
  from pg_proc p
  join pg_type rt on rt.oid = p.prorettype
  left join pg_type ret on ret.oid = rt.typelem and rt.typcategory = 'A'
  where p.pronamespace = 'public'::regnamespace and p.prokind = 'f' and rt.typname <> 'trigger'
    and (has_function_privilege('anon', p.oid, 'execute') or has_function_privilege('authenticated', p.oid, 'execute')
         or has_function_privilege('service_role', p.oid, 'execute'))
  order by p.proname, p.pronargs, p.oid::regprocedure::text`

type ColumnRow = {
  relation: string
  kind: 'table' | 'view'
  name: string
  type: string
  element_type: string | null
  nullable: boolean
  has_default: boolean
  generated: boolean
  enum_name: string | null
}
type RelationshipRow = {
  name: string
  relation: string
  referenced: string
  columns: string[]
  referenced_columns: string[]
  one_to_one: boolean
}
type FunctionRow = {
  name: string
  returns_set: boolean
  return_type: string
  return_element_type: string | null
  arg_names: string[]
  arg_modes: string[]
  arg_types: string[]
  arg_element_types: string[]
  default_count: number
  in_count: number
}

export async function readCatalog(db: Queryable): Promise<Catalog> {
  const columns = (await db.query<ColumnRow>(columnsSql)).rows
  const relationships = (await db.query<RelationshipRow>(relationshipsSql)).rows
  const relations = new Map<string, Relation>()
  for (const c of columns) {
    const relation = relations.get(c.relation) ?? { name: c.relation, kind: c.kind, columns: [], relationships: [] }
    relation.columns.push({
      name: c.name,
      type: c.type,
      elementType: c.element_type,
      nullable: c.nullable,
      hasDefault: c.has_default,
      generated: c.generated,
      enumName: c.enum_name,
    })
    relations.set(c.relation, relation)
  }
  for (const r of relationships) {
    relations.get(r.relation)?.relationships.push({
      foreignKeyName: r.name,
      columns: r.columns,
      isOneToOne: r.one_to_one,
      referencedRelation: r.referenced,
      referencedColumns: r.referenced_columns,
    })
  }
  const functions = (await db.query<FunctionRow>(functionsSql)).rows.map(toFunction)
  const enums = (
    await db.query<{ name: string; values: string[] }>(`
      select t.typname as name, array_agg(e.enumlabel order by e.enumsortorder)::text[] as values
      from pg_type t join pg_enum e on e.enumtypid = t.oid
      where t.typnamespace = 'public'::regnamespace group by t.typname order by t.typname`)
  ).rows
  return { relations: [...relations.values()], functions, enums }
}

function toFunction(row: FunctionRow): FunctionInfo {
  const modes = row.arg_modes.length ? row.arg_modes : row.arg_types.map(() => 'i')
  const all = row.arg_types.map((type, i) => ({
    name: row.arg_names[i] ?? `arg${i}`,
    type,
    elementType: row.arg_element_types[i] || null,
    mode: modes[i],
  }))
  const inputs = all.filter((a) => a.mode === 'i' || a.mode === 'b')
  const firstDefault = row.in_count - row.default_count
  const args = inputs.map((a, i) => ({
    name: a.name,
    type: a.type,
    elementType: a.elementType,
    optional: i >= firstDefault,
  }))
  const outputs = all.filter((a) => a.mode === 't' || a.mode === 'o' || a.mode === 'b')
  return {
    name: row.name,
    args,
    returnType: row.return_type,
    returnElementType: row.return_element_type,
    returnsSet: row.returns_set,
    tableColumns: outputs.length ? outputs.map((a) => ({ ...a, optional: false })) : null,
  }
}
