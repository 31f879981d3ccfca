/**
 * The schema the migrations build, read from the Postgres catalog into one deterministic, sorted object: the
 * schemas `public` and `private` (types, tables with columns, defaults, constraints, indexes, row-level security,
 * policies, table and column grants, triggers, views, functions with their text, owner, security, settings and
 * grants, comments), the triggers our functions put on other schemas' tables (auth.users), the API roles'
 * settings, default privileges, pg_cron jobs and the rows the migrations themselves insert.
 *
 * Two things are made from it: `supabase/schemas/<domain>.sql` (schema-sql.ts, written by `npm run db:types`)
 * and the catalog fixtures the squash was checked against (supabase/tests/squash.test.ts). The same queries run
 * on PGlite and on PostgreSQL; where the engines differ (PostgreSQL 18's `maintain` privilege and named not-null
 * constraints), each engine is compared with a fixture of its own.
 */
import type { Db, Queryable } from './database'

/** The schemas the migrations own. */
export const SCHEMAS = ['public', 'private'] as const

export type Acl = string[] | null
export type ColumnInfo = {
  name: string
  type: string
  notNull: boolean
  default: string | null
  identity: '' | 'a' | 'd'
  generated: '' | 's' | 'v'
  collation: string | null
  comment: string | null
  acl: Acl
}
export type ConstraintInfo = { name: string; type: string; definition: string; references: string | null }
export type IndexInfo = { name: string; definition: string; constraint: boolean }
export type PolicyInfo = {
  name: string
  command: string
  permissive: boolean
  roles: string[]
  using: string | null
  check: string | null
}
export type TriggerInfo = { name: string; definition: string; enabled: string }
export type TableInfo = {
  schema: string
  name: string
  owner: string
  rls: boolean
  forceRls: boolean
  options: string[] | null
  comment: string | null
  acl: Acl
  columns: ColumnInfo[]
  constraints: ConstraintInfo[]
  indexes: IndexInfo[]
  policies: PolicyInfo[]
  triggers: TriggerInfo[]
  /** A partitioned table's key (`RANGE (created_at)`); absent on plain tables. Its partitions are not read. */
  partitionBy?: string
}
export type ViewInfo = {
  schema: string
  name: string
  owner: string
  materialized: boolean
  definition: string
  options: string[] | null
  comment: string | null
  acl: Acl
  columns: { name: string; type: string; comment: string | null; acl: Acl }[]
}
export type TypeInfo = {
  schema: string
  name: string
  kind: 'enum' | 'composite'
  labels: string[]
  attributes: { name: string; type: string }[]
  comment: string | null
  acl: Acl
}
export type FunctionInfo = {
  schema: string
  name: string
  /** name(identity arguments): unique among overloads. */
  signature: string
  kind: string
  language: string
  returns: string
  owner: string
  securityDefiner: boolean
  config: string[] | null
  definition: string
  comment: string | null
  acl: Acl
}
export type SequenceInfo = {
  schema: string
  name: string
  owner: string
  identity: boolean
  definition: string
  ownedBy: string | null
  acl: Acl
}
export type SchemaInfo = { name: string; owner: string; comment: string | null; acl: Acl }
export type DataInfo = { schema: string; table: string; columns: string[]; rows: (string | null)[][] }

export type SchemaCatalog = {
  schemas: SchemaInfo[]
  extensions: { name: string; schema: string }[]
  roleSettings: { role: string; settings: string[] }[]
  defaultAcls: { role: string; schema: string; objectType: string; acl: Acl }[]
  types: TypeInfo[]
  tables: TableInfo[]
  views: ViewInfo[]
  sequences: SequenceInfo[]
  functions: FunctionInfo[]
  /** Triggers on tables of other schemas (auth.users) that call our functions. */
  foreignTriggers: { table: string; name: string; definition: string }[]
  cronJobs: { name: string; schedule: string; command: string; active: boolean }[]
  /** pg_cron and pg_net, emulated by embedded-backend (cron/extensions.ts), so not in pg_extension. */
  emulatedExtensions: string[]
  data: DataInfo[]
}

// ACL items in a stable order (Postgres keeps them in the order the grants happened).
const sortAcl = (acl: Acl): Acl => (acl ? [...acl].sort() : null)
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
const byName = <T extends { name: string }>(a: T, b: T) => compare(a.name, b.name)

// Objects an extension owns are the extension's, not the migrations'.
const notExtensionMember = (classid: string, oid: string) =>
  `not exists (select 1 from pg_depend d where d.classid = '${classid}'::regclass and d.objid = ${oid} and d.deptype = 'e')`

/**
 * Reads the catalog in a transaction with an empty search_path, so every name in the deparsed text (types,
 * tables, functions) comes out schema-qualified, as the migrations write it.
 */
export function readSchemaCatalog(db: Db): Promise<SchemaCatalog> {
  return db.transaction(async (tx) => {
    await tx.query("set local search_path = ''")
    return read(tx)
  })
}

/** A query's rows. */
type Rows = <T>(sql: string, params?: unknown[]) => Promise<T[]>
const scope = [...SCHEMAS]

/** The schemas themselves, the extensions, the API roles' settings and the migrations' default privileges. */
async function readDatabaseWide(q: Rows) {
  // What the platform grants the migrations' own role (on a hosted-shaped server: supabase_admin's grant on public to
  // postgres) and the platform roles' default privileges are the platform's, not the migrations': both are left out,
  // so a database prepared as hosted and one whose postgres is the superuser read the same.
  const schemas = (
    await q<SchemaInfo>(
      `select n.nspname as name, pg_get_userbyid(n.nspowner) as owner, obj_description(n.oid, 'pg_namespace') as comment,
         case when n.nspacl is null then null else array(
           select x::text from unnest(n.nspacl) x
           where not exists (select 1 from aclexplode(array[x]) e
                             where e.grantee = (select oid from pg_roles where rolname = current_user)
                               and e.grantor <> e.grantee)) end as acl
       from pg_namespace n where n.nspname = any($1::text[]) order by 1`,
      [scope],
    )
  ).map((s) => ({ ...s, acl: sortAcl(s.acl) }))

  const extensions = await q<{ name: string; schema: string }>(
    `select e.extname as name, n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
     where e.extname <> 'plpgsql' order by 1`,
  )

  const roleSettings = (
    await q<{ role: string; settings: string[] }>(
      `select r.rolname as role, s.setconfig::text[] as settings from pg_db_role_setting s join pg_roles r on r.oid = s.setrole
       where s.setdatabase = 0 and r.rolname in ('anon', 'authenticated', 'service_role') order by 1`,
    )
  ).map((r) => ({ ...r, settings: [...r.settings].sort() }))

  const defaultAcls = (
    await q<{ role: string; schema: string; objectType: string; acl: Acl }>(
      `select pg_get_userbyid(d.defaclrole) as role, coalesce(n.nspname, '') as schema, d.defaclobjtype::text as "objectType",
         d.defaclacl::text[] as acl
       from pg_default_acl d left join pg_namespace n on n.oid = d.defaclnamespace
       where d.defaclrole = (select oid from pg_roles where rolname = current_user) order by 1, 2, 3`,
    )
  ).map((d) => ({ ...d, acl: sortAcl(d.acl) }))

  return { schemas, extensions, roleSettings, defaultAcls }
}

/** The enum and composite types (domains are refused until the snapshot supports them). */
async function readTypes(q: Rows): Promise<TypeInfo[]> {
  return (
    await q<TypeInfo & { typtype: string }>(
      `select n.nspname as schema, t.typname as name, t.typtype::text as typtype,
         case t.typtype when 'e' then 'enum' else 'composite' end as kind,
         coalesce(array(select e.enumlabel::text from pg_enum e where e.enumtypid = t.oid order by e.enumsortorder), '{}') as labels,
         coalesce((select json_agg(json_build_object('name', a.attname, 'type', format_type(a.atttypid, a.atttypmod)) order by a.attnum)
           from pg_attribute a where a.attrelid = t.typrelid and a.attnum > 0 and not a.attisdropped), '[]') as attributes,
         obj_description(t.oid, 'pg_type') as comment, t.typacl::text[] as acl
       from pg_type t join pg_namespace n on n.oid = t.typnamespace
       where n.nspname = any($1::text[]) and ${notExtensionMember('pg_type', 't.oid')}
         and (t.typtype in ('e', 'd') or (t.typtype = 'c' and (select c.relkind from pg_class c where c.oid = t.typrelid) = 'c'))
       order by 1, 2`,
      [scope],
    )
  ).map(({ typtype, ...t }) => {
    if (typtype === 'd')
      throw new Error(`schema-catalog: domain ${t.schema}.${t.name} is not supported yet; add it here`)
    return { ...t, acl: sortAcl(t.acl) }
  })
}

/** Tables, views and sequences, each with what belongs to it (columns, constraints, indexes, policies, triggers). */
async function readRelations(q: Rows) {
  const relations = await q<RelationRows['relations'][number]>(
    `select c.oid::text as oid, n.nspname as schema, c.relname as name, c.relkind::text as kind, pg_get_userbyid(c.relowner) as owner,
       case when c.relkind = 'p' then pg_get_partkeydef(c.oid) end as "partitionBy",
       c.relrowsecurity as rls, c.relforcerowsecurity as "forceRls", c.reloptions::text[] as options,
       obj_description(c.oid, 'pg_class') as comment, c.relacl::text[] as acl
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = any($1::text[]) and c.relkind in ('r', 'p', 'v', 'm', 'S') and ${notExtensionMember('pg_class', 'c.oid')}
     order by 2, 3`,
    [scope],
  )
  const oids = relations.map((r) => String(r.oid))

  const columns = await q<ColumnInfo & { rel: string }>(
    `select a.attrelid::text as rel, a.attname as name, format_type(a.atttypid, a.atttypmod) as type, a.attnotnull as "notNull",
       pg_get_expr(d.adbin, d.adrelid) as default, a.attidentity::text as identity, a.attgenerated::text as generated,
       case when a.attcollation <> t.typcollation then (select collname from pg_collation where oid = a.attcollation) end as collation,
       col_description(a.attrelid, a.attnum) as comment, a.attacl::text[] as acl
     from pg_attribute a join pg_type t on t.oid = a.atttypid left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
     where a.attrelid = any($1::oid[]) and a.attnum > 0 and not a.attisdropped
     order by a.attrelid, a.attnum`,
    [oids],
  )
  // Not-null constraints (PostgreSQL 18 names them in pg_constraint) are the columns' notNull.
  const constraints = await q<ConstraintInfo & { rel: string }>(
    `select c.conrelid::text as rel, c.conname as name, c.contype::text as type, pg_get_constraintdef(c.oid) as definition,
       case when c.contype = 'f' then c.confrelid::regclass::text end as references
     from pg_constraint c where c.conrelid = any($1::oid[]) and c.contype in ('p', 'u', 'f', 'c', 'x') and c.conparentid = 0
     order by 1, 2`,
    [oids],
  )
  const indexes = await q<IndexInfo & { rel: string }>(
    `select x.indrelid::text as rel, i.relname as name, pg_get_indexdef(i.oid) as definition,
       exists (select 1 from pg_constraint c where c.conindid = i.oid and c.conrelid = x.indrelid) as constraint
     from pg_index x join pg_class i on i.oid = x.indexrelid where x.indrelid = any($1::oid[]) order by 1, 2`,
    [oids],
  )
  const policies = await q<PolicyInfo & { rel: string }>(
    `select p.polrelid::text as rel, p.polname as name, p.polcmd::text as command, p.polpermissive as permissive,
       array(select case when r = 0 then 'public' else pg_get_userbyid(r) end from unnest(p.polroles) r order by 1)::text[] as roles,
       pg_get_expr(p.polqual, p.polrelid) as using, pg_get_expr(p.polwithcheck, p.polrelid) as check
     from pg_policy p where p.polrelid = any($1::oid[]) order by 1, 2`,
    [oids],
  )
  const triggers = await q<TriggerInfo & { rel: string }>(
    `select t.tgrelid::text as rel, t.tgname as name, pg_get_triggerdef(t.oid) as definition, t.tgenabled::text as enabled
     from pg_trigger t where t.tgrelid = any($1::oid[]) and not t.tgisinternal order by 1, 2`,
    [oids],
  )
  const views = await q<{ oid: string; definition: string }>(
    `select c.oid::text as oid, pg_get_viewdef(c.oid) as definition from pg_class c where c.oid = any($1::oid[]) and c.relkind in ('v', 'm')`,
    [oids],
  )
  const sequences = await q<{ oid: string; definition: string; ownedBy: string | null; identity: boolean }>(
    `select s.seqrelid::text as oid,
       format('as %s increment by %s minvalue %s maxvalue %s start with %s cache %s%s', format_type(s.seqtypid, null),
         s.seqincrement, s.seqmin, s.seqmax, s.seqstart, s.seqcache, case when s.seqcycle then ' cycle' else '' end) as definition,
       (select format('%s.%I', d.refobjid::regclass::text, a.attname) from pg_depend d
          join pg_attribute a on a.attrelid = d.refobjid and a.attnum = d.refobjsubid
          where d.classid = 'pg_class'::regclass and d.objid = s.seqrelid and d.deptype in ('a', 'i')) as "ownedBy",
       exists (select 1 from pg_depend d where d.classid = 'pg_class'::regclass and d.objid = s.seqrelid and d.deptype = 'i') as identity
     from pg_sequence s where s.seqrelid = any($1::oid[])`,
    [oids],
  )

  return assembleRelations({ relations, columns, constraints, indexes, policies, triggers, views, sequences })
}

type RelationRows = {
  relations: {
    oid: string
    schema: string
    name: string
    kind: string
    owner: string
    rls: boolean
    forceRls: boolean
    options: string[] | null
    comment: string | null
    acl: Acl
    partitionBy: string | null
  }[]
  columns: (ColumnInfo & { rel: string })[]
  constraints: (ConstraintInfo & { rel: string })[]
  indexes: (IndexInfo & { rel: string })[]
  policies: (PolicyInfo & { rel: string })[]
  triggers: (TriggerInfo & { rel: string })[]
  views: { oid: string; definition: string }[]
  sequences: { oid: string; definition: string; ownedBy: string | null; identity: boolean }[]
}

/** The rows of readRelations put together per relation: tables, views and sequences. */
function assembleRelations(rows: RelationRows) {
  const { relations, columns, constraints, indexes, policies, triggers, views, sequences } = rows
  const per = <T extends { rel: string }>(rows: T[], oid: string) =>
    rows.filter((r) => String(r.rel) === oid).map(({ rel: _rel, ...rest }) => rest)
  const tables: TableInfo[] = []
  const viewInfos: ViewInfo[] = []
  const sequenceInfos: SequenceInfo[] = []
  for (const r of relations) {
    const oid = String(r.oid)
    const cols = per(columns, oid).map((c) => ({ ...c, acl: sortAcl(c.acl) }))
    if (r.kind === 'r' || r.kind === 'p') {
      tables.push({
        schema: r.schema,
        name: r.name,
        owner: r.owner,
        rls: r.rls,
        forceRls: r.forceRls,
        options: r.options,
        comment: r.comment,
        acl: sortAcl(r.acl),
        columns: cols,
        constraints: per(constraints, oid).sort(byName),
        indexes: per(indexes, oid).sort(byName),
        policies: per(policies, oid).sort(byName),
        triggers: per(triggers, oid).sort(byName),
        ...(r.partitionBy ? { partitionBy: r.partitionBy } : {}),
      })
    } else if (r.kind === 'v' || r.kind === 'm') {
      viewInfos.push({
        schema: r.schema,
        name: r.name,
        owner: r.owner,
        materialized: r.kind === 'm',
        definition: views.find((v) => String(v.oid) === oid)!.definition,
        options: r.options,
        comment: r.comment,
        acl: sortAcl(r.acl),
        columns: cols.map((c) => ({ name: c.name, type: c.type, comment: c.comment, acl: c.acl })),
      })
    } else {
      const s = sequences.find((x) => String(x.oid) === oid)!
      // An identity column's sequence comes with the column; only its grants are the migrations' own.
      sequenceInfos.push({
        schema: r.schema,
        name: r.name,
        owner: r.owner,
        identity: s.identity,
        definition: s.definition,
        ownedBy: s.ownedBy,
        acl: sortAcl(r.acl),
      })
    }
  }

  return { tables, viewInfos, sequenceInfos }
}

/** The functions and procedures, with their text, owner, security, settings and grants. */
async function readFunctions(q: Rows): Promise<FunctionInfo[]> {
  return (
    await q<FunctionInfo>(
      `select n.nspname as schema, p.proname as name, format('%s(%s)', p.proname, pg_get_function_identity_arguments(p.oid)) as signature,
         p.prokind::text as kind, l.lanname as language, pg_get_function_result(p.oid) as returns, pg_get_userbyid(p.proowner) as owner,
         p.prosecdef as "securityDefiner", p.proconfig::text[] as config, pg_get_functiondef(p.oid) as definition,
         obj_description(p.oid, 'pg_proc') as comment, p.proacl::text[] as acl
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace join pg_language l on l.oid = p.prolang
       where n.nspname = any($1::text[]) and p.prokind in ('f', 'p') and ${notExtensionMember('pg_proc', 'p.oid')}
       order by 1, 3`,
      [scope],
    )
  ).map((f) => ({ ...f, acl: sortAcl(f.acl) }))
}

/** pg_cron's jobs, and which of pg_cron and pg_net the embedded backend emulates. */
async function readCron(q: Rows) {
  const emulatedExtensions = (
    await q<{ name: string }>(
      `select x.name from (values ('pg_cron', 'cron'), ('pg_net', 'net')) x(name, schema)
       where to_regnamespace(x.schema) is not null and not exists (select 1 from pg_extension e where e.extname = x.name) order by 1`,
    )
  ).map((x) => x.name)
  const hasCron = (await q<{ ok: boolean }>(`select to_regclass('cron.job') is not null as ok`))[0]!.ok
  const cronJobs = hasCron
    ? await q<{ name: string; schedule: string; command: string; active: boolean }>(
        `select jobname as name, schedule, command, active from cron.job order by jobname`,
      )
    : []

  return { emulatedExtensions, cronJobs }
}

/** The rows the migrations insert (lookup tables, settings): on a database migrated without the seed. */
async function readData(q: Rows, tables: TableInfo[]): Promise<DataInfo[]> {
  const data: DataInfo[] = []
  for (const t of tables) {
    // A column filled by a volatile default (private.settings' random secret, ids, timestamps) is left to it:
    // its value is no part of the schema, and a secret must never be written into a file.
    const names = t.columns
      .filter((c) => c.generated === '' && !VOLATILE_DEFAULT.test(c.default ?? ''))
      .map((c) => c.name)
    const target = `${quoteIdent(t.schema)}.${quoteIdent(t.name)}`
    const list = names.map((n) => `${quoteIdent(n)}::text`).join(', ')
    const rows = await q<{ r: (string | null)[] }>(
      `select array[${list}]::text[] as r from ${target} order by ${names.map((n) => `${quoteIdent(n)}::text`).join(', ')}`,
    )
    if (rows.length) data.push({ schema: t.schema, table: t.name, columns: names, rows: rows.map((x) => x.r) })
  }

  return data
}

async function read(db: Queryable): Promise<SchemaCatalog> {
  const q: Rows = async <T>(sql: string, params: unknown[] = []) => (await db.query<T>(sql, params)).rows
  const { schemas, extensions, roleSettings, defaultAcls } = await readDatabaseWide(q)
  const types = await readTypes(q)
  const { tables, viewInfos, sequenceInfos } = await readRelations(q)
  const functions = await readFunctions(q)
  const foreignTriggers = await q<{ table: string; name: string; definition: string }>(
    `select t.tgrelid::regclass::text as table, t.tgname as name, pg_get_triggerdef(t.oid) as definition
     from pg_trigger t join pg_proc p on p.oid = t.tgfoid join pg_class c on c.oid = t.tgrelid
     where not t.tgisinternal and t.tgparentid = 0 and p.pronamespace::regnamespace::text = any($1::text[])
       and c.relnamespace::regnamespace::text <> all($1::text[])
     order by 1, 2`,
    [scope],
  )

  const { emulatedExtensions, cronJobs } = await readCron(q)
  const data = await readData(q, tables)

  // Sorted here rather than by the database, whose collation differs between engines and servers.
  const by =
    <T>(key: (x: T) => string) =>
    (a: T, b: T) =>
      compare(key(a), key(b))
  types.sort(by((t) => `${t.schema}.${t.name}`))
  tables.sort(by((t) => `${t.schema}.${t.name}`))
  viewInfos.sort(by((v) => `${v.schema}.${v.name}`))
  sequenceInfos.sort(by((s) => `${s.schema}.${s.name}`))
  functions.sort(by((f) => `${f.schema}.${f.signature}`))
  foreignTriggers.sort(by((t) => `${t.table} ${t.name}`))
  cronJobs.sort(by((j) => j.name))
  data.sort(by((d) => `${d.schema}.${d.table}`))
  for (const d of data) d.rows.sort(by((r) => JSON.stringify(r)))
  return {
    schemas,
    extensions,
    roleSettings,
    defaultAcls,
    types,
    tables,
    views: viewInfos,
    sequences: sequenceInfos,
    functions,
    foreignTriggers,
    cronJobs,
    emulatedExtensions,
    data,
  }
}

const VOLATILE_DEFAULT =
  /\b(gen_random_bytes|gen_random_uuid|random|now|clock_timestamp|statement_timestamp|transaction_timestamp|nextval)\(/

export function quoteIdent(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) && !RESERVED.has(name) ? name : `"${name.replace(/"/g, '""')}"`
}

// Words that must be quoted as identifiers (the reserved ones a column here could plausibly be named).
const RESERVED = new Set([
  'all',
  'analyse',
  'analyze',
  'and',
  'any',
  'array',
  'as',
  'asc',
  'both',
  'case',
  'cast',
  'check',
  'collate',
  'column',
  'constraint',
  'create',
  'default',
  'desc',
  'distinct',
  'do',
  'else',
  'end',
  'for',
  'foreign',
  'from',
  'grant',
  'group',
  'having',
  'in',
  'into',
  'leading',
  'limit',
  'not',
  'null',
  'offset',
  'on',
  'only',
  'or',
  'order',
  'primary',
  'references',
  'select',
  'table',
  'then',
  'to',
  'trailing',
  'union',
  'unique',
  'user',
  'using',
  'when',
  'where',
  'with',
])
