/**
 * Renders a schema catalog (schema-catalog.ts) as readable, executable SQL, one file per domain, in an order
 * Postgres accepts: `supabase/schemas/<domain>.sql` (the current state a newcomer reads, written by
 * `npm run db:types`) is rendered here, and the baseline migrations were rendered by the same code when the
 * history was squashed (docs/decisions.md).
 *
 * Every table, view and function goes to the domain it is tagged with in schema-domains.ts (by name, never by a
 * pattern) unless it depends on something of a later domain: a `language sql` function or a view is checked
 * against the tables it names when it is created, so it moves to the later file. plpgsql bodies are not checked at
 * creation, so their calls do not count. Under each table a comment lists every trigger on it in firing order,
 * with the file its function is in, since a trigger statement runs in the file of the latest thing it needs.
 */
import { literal } from './database'
import { DOMAIN_TAGS, DOMAINS, schemaFileName, type Domain, type DomainSlug } from './schema-domains'
import {
  quoteIdent,
  type Acl,
  type FunctionInfo,
  type SchemaCatalog,
  type TableInfo,
  type TypeInfo,
  type ViewInfo,
} from './schema-catalog'

const domainIndex = new Map<string, number>(DOMAINS.map((d, i) => [d.slug, i]))

/** Qualified name → domain slug, from the tags; a name tagged twice is refused. */
function tagMap(kind: 'tables' | 'functions'): Map<string, DomainSlug> {
  const tags = new Map<string, DomainSlug>()
  for (const [slug, lists] of Object.entries(DOMAIN_TAGS) as [DomainSlug, (typeof DOMAIN_TAGS)[DomainSlug]][]) {
    for (const name of lists[kind]) {
      const other = tags.get(name)
      if (other) throw new Error(`schema-sql: ${name} is tagged both ${other} and ${slug} in schema-domains.ts`)
      tags.set(name, slug)
    }
  }
  return tags
}

type Category =
  | 'schema'
  | 'type'
  | 'table'
  | 'constraint'
  | 'function'
  | 'view'
  | 'index'
  | 'data'
  | 'trigger'
  | 'policy'
  | 'job'
const CATEGORY_ORDER: Category[] = [
  'schema',
  'type',
  'table',
  'constraint',
  'function',
  'view',
  'index',
  'data',
  'trigger',
  'policy',
  'job',
]
const SECTION_TITLES: Record<Category, string> = {
  schema: 'Extensions, schemas and roles',
  type: 'Types',
  table: 'Tables',
  constraint: 'Foreign keys to the tables above, from tables of earlier domains',
  function: 'Functions',
  view: 'Views',
  index: 'Indexes on functions',
  data: 'Rows the schema ships with',
  trigger: 'Triggers',
  policy: 'Row-level security policies',
  job: 'Scheduled jobs (pg_cron)',
}

type Item = {
  key: string
  name: string
  domain: number
  category: Category
  deps: string[]
  sql: string
  /** A table's triggers, listed under it (the statements run where their functions allow). */
  triggers?: { table: string; list: TableInfo['triggers'] }
}

export type RenderOptions = {
  /** The first lines of every file (each file's title and what it holds follow). */
  header: (domain: Domain) => string
  /** `create function` (the baseline: a second definition fails) or `create or replace function`. */
  createFunction?: 'create function' | 'create or replace function'
}

/** One SQL text per domain slug, in DOMAINS order. */
export function renderSchemaSql(catalog: SchemaCatalog, options: RenderOptions): Map<string, string> {
  const items = buildItems(catalog, options)
  const byKey = new Map(items.map((i) => [i.key, i]))
  // An object runs in the latest file of its own domain and of everything it needs at creation.
  const effective = new Map<string, number>()
  const visiting = new Set<string>()
  const domainOf = (item: Item): number => {
    const known = effective.get(item.key)
    if (known !== undefined) return known
    if (visiting.has(item.key)) return item.domain
    visiting.add(item.key)
    let d = item.domain
    for (const dep of item.deps) {
      const other = byKey.get(dep)
      if (other && other !== item) d = Math.max(d, domainOf(other))
    }
    visiting.delete(item.key)
    effective.set(item.key, d)
    return d
  }
  // The file a function is defined in (all overloads of a name are tagged alike).
  const fileOf = (functionName: string, here: number) => {
    const fn = items.find((i) => i.category === 'function' && i.key.startsWith(`function:${functionName}(`))
    if (!fn) return 'not in the snapshot'
    const d = domainOf(fn)
    return d === here ? 'this file' : schemaFileName(DOMAINS[d]!)
  }
  const out = new Map<string, string>()
  DOMAINS.forEach((domain, index) => {
    const mine = items
      .filter((i) => domainOf(i) === index)
      .sort(
        (a, b) => CATEGORY_ORDER.indexOf(a.category) - CATEGORY_ORDER.indexOf(b.category) || compare(a.name, b.name),
      )
    const done = new Set(items.filter((i) => domainOf(i) < index).map((i) => i.key))
    const ordered: Item[] = []
    const left = [...mine]
    while (left.length) {
      const at = left.findIndex((i) => i.deps.every((d) => d === i.key || done.has(d) || !byKey.has(d)))
      if (at < 0) throw new Error(`schema-sql: circular dependencies among ${left.map((i) => i.key).join(', ')}`)
      const [next] = left.splice(at, 1)
      ordered.push(next!)
      done.add(next!.key)
    }
    const parts = [options.header(domain).trimEnd(), '']
    let section: Category | null = null
    for (const item of ordered) {
      if (item.category !== section) {
        section = item.category
        parts.push(
          `-- ${'='.repeat(3)} ${SECTION_TITLES[section]} ${'='.repeat(Math.max(3, 100 - SECTION_TITLES[section].length))}`,
          '',
        )
      }
      parts.push(item.sql.trimEnd(), '')
      if (item.triggers?.list.length)
        parts.push(
          triggerListing(item.triggers.table, item.triggers.list, (name) => fileOf(name, index)),
          '',
        )
    }
    out.set(domain.slug, `${parts.join('\n').trimEnd()}\n`)
  })
  return out
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

type ParsedTrigger = { name: string; timing: string; events: string; level: string; when: string; call: string }

/** `pg_get_triggerdef`'s text, in parts: `CREATE TRIGGER n BEFORE INSERT OR UPDATE OF c ON t … FOR EACH ROW …`. */
function parseTrigger(definition: string): ParsedTrigger {
  const m = definition.match(
    /^CREATE (?:CONSTRAINT )?TRIGGER (\S+) (BEFORE|AFTER|INSTEAD OF) (.+?) ON \S+ .*?FOR EACH (ROW|STATEMENT)(?: WHEN \((.*)\))? EXECUTE (?:FUNCTION|PROCEDURE) (.+)$/,
  )
  if (!m) throw new Error(`schema-sql: cannot read the trigger ${definition}; read it here`)
  return {
    name: m[1]!,
    timing: m[2]!.toLowerCase(),
    events: lower(m[3]!).replace(/ or /g, ', '),
    level: m[4]!.toLowerCase(),
    when: m[5] ? lower(m[5]) : '',
    call: lower(m[6]!),
  }
}

/**
 * The comment under a table: every trigger on it in the order PostgreSQL fires them for one statement (before
 * statement, before row, after row, after statement; by name within each), what fires it, the function it runs and
 * the file that function is defined in (`fileOf`). Its `create trigger` statement is in the later of this file and
 * that one.
 */
function triggerListing(
  table: string,
  triggers: TableInfo['triggers'],
  fileOf: (functionName: string) => string,
): string {
  const parsed = triggers.map((t) => ({ ...parseTrigger(t.definition), enabled: t.enabled }))
  const rank = (p: ParsedTrigger) =>
    (p.timing === 'after' ? 2 : 0) + ((p.timing === 'after') === (p.level === 'statement') ? 1 : 0)
  parsed.sort((a, b) => rank(a) - rank(b) || compare(a.name, b.name))
  const lines = [
    `-- Every trigger on ${table}, in the order they fire: before each statement, before each row, after`,
    '-- each row, after each statement, by name within each. Beside each, the file that defines its function; the',
    '-- `create trigger` statement is in the Triggers section of the later of that file and this one.',
  ]
  let group = ''
  for (const p of parsed) {
    const heading = `${p.timing} each ${p.level}`
    if (heading !== group) lines.push(`--   ${heading}:`)
    group = heading
    const when = p.when ? ` when ${p.when}` : ''
    lines.push(`--     ${p.name}: on ${p.events}${when}${p.enabled === 'D' ? ' (disabled)' : ''}`)
    lines.push(`--       ${p.call} (${fileOf(p.call.replace(/\(.*$/, ''))})`)
  }
  return lines.join('\n')
}

/** What every part of buildItems needs: the catalog, and each object's dependencies and domain. */
type Build = {
  catalog: SchemaCatalog
  /** Every schema-qualified name the text mentions that is one of ours, as item keys (less `self`). */
  depsOf: (text: string, self?: string) => string[]
  relationDomain: (schema: string, name: string) => number
  functionDomain: (f: FunctionInfo) => number
}

/** Item keys by the names SQL text uses for our relations, types and functions. */
function dependencyReader(catalog: SchemaCatalog): Build['depsOf'] {
  const relationKeys = new Map<string, string>()
  const typeKeys = new Map<string, string>()
  const functionKeys = new Map<string, string[]>()
  for (const t of catalog.tables) relationKeys.set(`${t.schema}.${t.name}`, `table:${t.schema}.${t.name}`)
  for (const v of catalog.views) relationKeys.set(`${v.schema}.${v.name}`, `view:${v.schema}.${v.name}`)
  for (const t of catalog.types) typeKeys.set(`${t.schema}.${t.name}`, `type:${t.schema}.${t.name}`)
  for (const f of catalog.functions) {
    const name = `${f.schema}.${f.name}`
    functionKeys.set(name, [...(functionKeys.get(name) ?? []), `function:${f.schema}.${f.signature}`])
  }
  return (text: string, self?: string) => {
    const deps = new Set<string>()
    for (const m of text.matchAll(/\b(public|private)\.("?)([a-z_][a-z0-9_]*)\2/gi)) {
      const name = `${m[1]!.toLowerCase()}.${m[3]!.toLowerCase()}`
      for (const key of [relationKeys.get(name), typeKeys.get(name), ...(functionKeys.get(name) ?? [])]) {
        if (key && key !== self) deps.add(key)
      }
    }
    return [...deps]
  }
}

/**
 * Every table, view and function has its domain tag (schema-domains.ts); the ones without are named all at once,
 * each with the domain of the latest table it names as a suggestion.
 */
function domainReaders(catalog: SchemaCatalog, depsOf: Build['depsOf']) {
  const relationTags = tagMap('tables')
  const functionTags = tagMap('functions')
  const untagged: string[] = []
  for (const r of [...catalog.tables, ...catalog.views]) {
    const name = `${r.schema}.${r.name}`
    if (!relationTags.has(name)) untagged.push(`tables of <its domain>: '${name}'`)
  }
  for (const f of catalog.functions) {
    const name = `${f.schema}.${f.name}`
    if (functionTags.has(name) || untagged.some((u) => u.endsWith(`'${name}'`))) continue
    let d = -1
    for (const dep of depsOf(f.definition)) {
      const tag =
        dep.startsWith('table:') || dep.startsWith('view:')
          ? relationTags.get(dep.slice(dep.indexOf(':') + 1))
          : undefined
      if (tag) d = Math.max(d, domainIndex.get(tag)!)
    }
    untagged.push(`functions of ${d < 0 ? '<its domain>' : DOMAINS[d]!.slug}: '${name}'`)
  }
  if (untagged.length) {
    throw new Error(
      `schema-sql: ${untagged.length} objects have no domain tag. Add each to its domain's list in DOMAIN_TAGS, ` +
        `embedded-backend/db/schema-domains.ts (the domain shown is a guess from the tables it names):\n  ${untagged.join('\n  ')}`,
    )
  }
  const relationDomain = (schema: string, name: string) => {
    const slug = relationTags.get(`${schema}.${name}`)
    if (!slug)
      throw new Error(`schema-sql: ${schema}.${name} has no domain tag in embedded-backend/db/schema-domains.ts`)
    return domainIndex.get(slug)!
  }
  const functionDomain = (f: FunctionInfo) => domainIndex.get(functionTags.get(`${f.schema}.${f.name}`)!)!

  return { relationDomain, functionDomain }
}

/** Extensions, schemas, roles: the first file. */
function headItems(catalog: SchemaCatalog, items: Item[]) {
  const head: string[] = []
  for (const e of catalog.extensions)
    head.push(`create extension if not exists ${quoteIdent(e.name)} with schema ${quoteIdent(e.schema)};`)
  // Emulated locally (embedded-backend/cron): written as on hosted Supabase, where they are real extensions.
  if (catalog.emulatedExtensions.includes('pg_cron'))
    head.push('create extension if not exists pg_cron with schema pg_catalog;')
  if (catalog.emulatedExtensions.includes('pg_net'))
    head.push('create extension if not exists pg_net with schema extensions;')
  for (const s of catalog.schemas) {
    if (s.name === 'public') continue // Supabase's own; the migrations only use it
    head.push('', `create schema if not exists ${quoteIdent(s.name)};`)
    if (s.comment !== null) head.push(`comment on schema ${quoteIdent(s.name)} is ${literal(s.comment)};`)
    head.push(...aclSql(`schema ${quoteIdent(s.name)}`, 'n', s.acl, s.owner, s.name, catalog))
  }
  for (const r of catalog.roleSettings) {
    for (const setting of r.settings) {
      const at = setting.indexOf('=')
      head.push(`alter role ${quoteIdent(r.role)} set ${setting.slice(0, at)} = ${literal(setting.slice(at + 1))};`)
    }
  }
  if (head.length)
    items.push({ key: 'schema:', name: '', domain: 0, category: 'schema', deps: [], sql: head.join('\n').trim() })
}

function typeItems({ catalog, depsOf }: Build, items: Item[]) {
  for (const t of catalog.types) {
    items.push({
      key: `type:${t.schema}.${t.name}`,
      name: t.name,
      domain: domainIndex.get('vocabulary')!,
      category: 'type',
      deps: depsOf(t.attributes.map((a) => a.type).join(' ')),
      sql: typeSql(t, catalog),
    })
  }
}

/** A table, its later-domain foreign keys, separate indexes, triggers and policies. */
function tableItems(b: Build, t: TableInfo, items: Item[]) {
  const { catalog, depsOf, relationDomain } = b
  const key = `table:${t.schema}.${t.name}`
  const domain = relationDomain(t.schema, t.name)
  // A foreign key to a table of a later domain is added in that domain's file, so each table stays in its own.
  const laterKeys = t.constraints.filter((c) => {
    if (!c.references?.startsWith('public.') && !c.references?.startsWith('private.')) return false // auth.users
    const [schema, name] = c.references.split('.') as [string, string]
    return relationDomain(schema, name) > domain
  })
  const { sql, separateIndexes } = tableSql(t, catalog, laterKeys)
  const tableText = [
    ...t.columns.map((c) => `${c.type} ${c.default ?? ''}`),
    ...t.constraints.filter((c) => !laterKeys.includes(c)).map((c) => c.definition),
    ...t.indexes.filter((i) => !separateIndexes.includes(i)).map((i) => i.definition),
  ].join('\n')
  items.push({
    key,
    name: t.name,
    domain,
    category: 'table',
    deps: depsOf(tableText, key),
    sql,
    triggers: { table: `${t.schema}.${t.name}`, list: t.triggers },
  })
  for (const c of laterKeys) {
    const [schema, name] = c.references!.split('.') as [string, string]
    items.push({
      key: `constraint:${t.schema}.${t.name}.${c.name}`,
      name: `${t.name} ${c.name}`,
      domain: relationDomain(schema, name),
      category: 'constraint',
      deps: [key, ...depsOf(c.definition, key)],
      sql: `alter table ${t.schema}.${quoteIdent(t.name)} add constraint ${quoteIdent(c.name)} ${lower(c.definition)};`,
    })
  }
  for (const index of separateIndexes) {
    items.push({
      key: `index:${t.schema}.${index.name}`,
      name: index.name,
      domain,
      category: 'index',
      deps: [key, ...depsOf(index.definition, key)],
      sql: `${lower(onPartitionedTable(index.definition))};`,
    })
  }
  for (const trigger of t.triggers) {
    items.push({
      key: `trigger:${t.schema}.${t.name}.${trigger.name}`,
      name: `${t.name} ${trigger.name}`,
      domain,
      category: 'trigger',
      deps: [key, ...depsOf(trigger.definition, key)],
      sql: triggerSql(trigger.definition, trigger.enabled, `${t.schema}.${t.name}`),
    })
  }
  if (t.policies.length) {
    const policyText = t.policies.map((p) => `${p.using ?? ''} ${p.check ?? ''}`).join('\n')
    items.push({
      key: `policy:${t.schema}.${t.name}`,
      name: t.name,
      domain,
      category: 'policy',
      deps: [key, ...depsOf(policyText, key)],
      sql: t.policies.map((p) => policySql(t, p)).join('\n'),
    })
  }
}

function viewItems({ catalog, depsOf, relationDomain }: Build, items: Item[]) {
  for (const v of catalog.views) {
    const key = `view:${v.schema}.${v.name}`
    items.push({
      key,
      name: v.name,
      domain: relationDomain(v.schema, v.name),
      category: 'view',
      deps: depsOf(v.definition, key),
      sql: viewSql(v, catalog),
    })
  }
}

function functionItems({ catalog, depsOf, functionDomain }: Build, options: RenderOptions, items: Item[]) {
  for (const f of catalog.functions) {
    const key = `function:${f.schema}.${f.signature}`
    const at = f.definition.search(/\nAS /)
    // A `language sql` body is checked against the catalog when the function is created; of a plpgsql body, only
    // the types its variables are declared with (`r public.payout_requests;`), not its statements.
    const checked =
      f.language === 'sql' ? f.definition : `${f.definition.slice(0, at)}\n${declaredTypes(f.definition.slice(at))}`
    const deps = depsOf(checked, key).filter((d) => !d.startsWith('function:') || f.language === 'sql')
    items.push({
      key,
      name: f.signature,
      domain: functionDomain(f),
      category: 'function',
      deps,
      sql: functionSql(f, catalog, options.createFunction ?? 'create or replace function'),
    })
  }
}

/** Triggers on other schemas' tables (auth.users) that call our functions: in the domain of the function. */
function foreignTriggerItems({ catalog, depsOf, functionDomain }: Build, items: Item[]) {
  for (const trigger of catalog.foreignTriggers) {
    const deps = depsOf(trigger.definition)
    const fn = deps.find((d) => d.startsWith('function:'))
    const fnInfo = catalog.functions.find((f) => `function:${f.schema}.${f.signature}` === fn)
    items.push({
      key: `trigger:${trigger.table}.${trigger.name}`,
      name: `${trigger.table} ${trigger.name}`,
      domain: fnInfo ? functionDomain(fnInfo) : 0,
      category: 'trigger',
      deps,
      sql: `${lower(trigger.definition)};`,
    })
  }
}

/** The rows the migrations insert. */
function dataItems({ catalog, relationDomain }: Build, items: Item[]) {
  for (const d of catalog.data) {
    const table = catalog.tables.find((t) => t.schema === d.schema && t.name === d.table)!
    const key = `table:${d.schema}.${d.table}`
    const overriding = table.columns.some((c) => c.identity === 'a' && d.columns.includes(c.name))
      ? ' overriding system value'
      : ''
    if (table.columns.some((c) => c.identity !== '')) {
      throw new Error(
        `schema-sql: rows of ${key}, which has an identity column: set its sequence after the insert before using this`,
      )
    }
    const rows = d.rows.map((r) => `  (${r.map((v) => (v === null ? 'null' : literal(v))).join(', ')})`)
    const referenced = table.constraints.filter((c) => c.references).map((c) => `data:${c.references}`)
    items.push({
      key: `data:${d.schema}.${d.table}`,
      name: d.table,
      domain: relationDomain(d.schema, d.table),
      category: 'data',
      deps: [key, ...referenced],
      sql: `insert into ${d.schema}.${quoteIdent(d.table)} (${d.columns.map(quoteIdent).join(', ')})${overriding} values\n${rows.join(',\n')};`,
    })
  }
}

/** pg_cron's jobs, each in the latest domain of what its command names. */
function jobItems({ catalog, depsOf }: Build, items: Item[]) {
  for (const job of catalog.cronJobs) {
    if (!job.active) throw new Error(`schema-sql: the pg_cron job ${job.name} is inactive; render cron.alter_job here`)
    const deps = depsOf(job.command)
    let domain = 0
    for (const dep of deps) {
      const item = items.find((i) => i.key === dep)
      if (item) domain = Math.max(domain, item.domain)
    }
    if (!deps.length) domain = domainIndex.get('notifications_and_jobs')!
    items.push({
      key: `job:${job.name}`,
      name: job.name,
      domain,
      category: 'job',
      deps,
      sql: `select cron.schedule(${literal(job.name)}, ${literal(job.schedule)}, ${dollar(job.command, 'job')});`,
    })
  }
}

function buildItems(catalog: SchemaCatalog, options: RenderOptions): Item[] {
  const standalone = catalog.sequences.filter((s) => !s.identity)
  if (standalone.length) {
    throw new Error(
      `schema-sql: sequences ${standalone.map((s) => s.name).join(', ')} are not rendered yet; add them here`,
    )
  }
  const depsOf = dependencyReader(catalog)
  const b: Build = { catalog, depsOf, ...domainReaders(catalog, depsOf) }
  const items: Item[] = []
  headItems(catalog, items)
  typeItems(b, items)
  for (const t of catalog.tables) tableItems(b, t, items)
  viewItems(b, items)
  functionItems(b, options, items)
  foreignTriggerItems(b, items)
  dataItems(b, items)
  jobItems(b, items)
  return items
}

// Words that start a statement or clause, not a variable declaration (`perform public.x()`, `from public.t`).
const NOT_A_VARIABLE = new Set(
  'perform return select from join into update delete insert table exists in on using query execute call and or not when then else is if elsif raise'.split(
    ' ',
  ),
)

/** The lines of a plpgsql body that declare a variable of one of our types: `name [constant] schema.type…`. */
function declaredTypes(body: string): string {
  return body
    .split('\n')
    .filter((line) => {
      const m = line.match(/^\s*([a-z_][a-z0-9_]*)\s+(?:constant\s+)?(public|private)\.[a-z_0-9]+/i)
      return m !== null && !NOT_A_VARIABLE.has(m[1]!.toLowerCase())
    })
    .join('\n')
}

function typeSql(t: TypeInfo, catalog: SchemaCatalog): string {
  const name = `${t.schema}.${quoteIdent(t.name)}`
  const lines =
    t.kind === 'enum'
      ? [`create type ${name} as enum (${t.labels.map(literal).join(', ')});`]
      : [`create type ${name} as (\n${t.attributes.map((a) => `  ${quoteIdent(a.name)} ${a.type}`).join(',\n')}\n);`]
  if (t.comment !== null) lines.push(`comment on type ${name} is ${literal(t.comment)};`)
  lines.push(...aclSql(`type ${name}`, 'T', t.acl, 'postgres', t.schema, catalog))
  return lines.join('\n')
}

/** An index of a partitioned table reads `ON ONLY t` in the catalog; created on the table, it covers its partitions. */
const onPartitionedTable = (definition: string) => definition.replace(/ ON ONLY /, ' ON ')

function tableSql(t: TableInfo, catalog: SchemaCatalog, laterKeys: TableInfo['constraints']) {
  const name = `${t.schema}.${quoteIdent(t.name)}`
  const columns = t.columns.map((c) => {
    let line = `  ${quoteIdent(c.name)} ${c.type}`
    if (c.collation) line += ` collate "${c.collation}"`
    if (c.generated === 's') line += ` generated always as (${lower(c.default ?? '')}) stored`
    else if (c.generated === 'v') line += ` generated always as (${lower(c.default ?? '')}) virtual`
    else if (c.identity) line += ` generated ${c.identity === 'a' ? 'always' : 'by default'} as identity`
    else if (c.default !== null) line += ` default ${lower(c.default)}`
    if (c.notNull && !c.identity) line += ' not null'
    return line
  })
  // Primary key and unique first, then checks, then foreign keys: how a person reads a table.
  const rank: Record<string, number> = { p: 0, u: 1, x: 2, c: 3, f: 4 }
  const constraints = t.constraints
    .filter((c) => !laterKeys.includes(c))
    .sort((a, b) => rank[a.type]! - rank[b.type]! || compare(a.name, b.name))
    .map((c) => `  constraint ${quoteIdent(c.name)} ${lower(c.definition)}`)
  const lines = [
    `create table ${name} (\n${[...columns, ...constraints].join(',\n')}\n)${t.partitionBy ? ` partition by ${lower(t.partitionBy)}` : ''}${t.options?.length ? ` with (${t.options.join(', ')})` : ''};`,
  ]
  if (t.rls) lines.push(`alter table ${name} enable row level security;`)
  if (t.forceRls) lines.push(`alter table ${name} force row level security;`)
  // An index whose expression calls one of our functions is created after the functions.
  const separateIndexes = t.indexes.filter(
    (i) =>
      !i.constraint && /\b(public|private)\.[a-z_0-9]+\(/.test(i.definition.replace(/ON (public|private)\.\S+/, '')),
  )
  for (const i of t.indexes)
    if (!i.constraint && !separateIndexes.includes(i)) lines.push(`${lower(onPartitionedTable(i.definition))};`)
  if (t.comment !== null) lines.push(`comment on table ${name} is ${literal(t.comment)};`)
  for (const c of t.columns)
    if (c.comment !== null) lines.push(`comment on column ${name}.${quoteIdent(c.name)} is ${literal(c.comment)};`)
  lines.push(...aclSql(`table ${name}`, 'r', t.acl, t.owner, t.schema, catalog))
  lines.push(...columnAclSql(name, t.columns))
  // The sequence of an identity column gets the schema's default grants for sequences: the migrations revoke them.
  for (const s of catalog.sequences.filter((x) => x.identity && x.ownedBy?.startsWith(`${t.schema}.${t.name}.`))) {
    lines.push(...aclSql(`sequence ${s.schema}.${quoteIdent(s.name)}`, 'S', s.acl, s.owner, s.schema, catalog))
  }
  return { sql: lines.join('\n'), separateIndexes }
}

function viewSql(v: ViewInfo, catalog: SchemaCatalog): string {
  const name = `${v.schema}.${quoteIdent(v.name)}`
  const kind = v.materialized ? 'materialized view' : 'view'
  const body = lower(v.definition.replace(/;\s*$/, '').replace(/^\s+/, ' '))
  const lines = [`create ${kind} ${name}${v.options?.length ? ` with (${v.options.join(', ')})` : ''} as\n${body};`]
  if (v.comment !== null) lines.push(`comment on ${kind} ${name} is ${literal(v.comment)};`)
  for (const c of v.columns)
    if (c.comment !== null) lines.push(`comment on column ${name}.${quoteIdent(c.name)} is ${literal(c.comment)};`)
  lines.push(...aclSql(`table ${name}`, 'r', v.acl, v.owner, v.schema, catalog))
  lines.push(...columnAclSql(name, v.columns))
  return lines.join('\n')
}

function functionSql(f: FunctionInfo, catalog: SchemaCatalog, create: string): string {
  // pg_get_functiondef: a header Postgres writes in capitals, then the body exactly as written.
  const at = f.definition.search(/\nAS /)
  if (at < 0) throw new Error(`schema-sql: ${f.schema}.${f.signature} has no AS body (begin atomic?); render it here`)
  const header = lower(f.definition.slice(0, at))
    .replace(/^create or replace function/, create)
    .replace(/^create or replace procedure/, create.replace('function', 'procedure'))
  const body = f.definition
    .slice(at + 1)
    .trimEnd()
    .replace(/^AS /, 'as ')
  const kind = f.kind === 'p' ? 'procedure' : 'function'
  const name = `${f.schema}.${lower(f.signature).replace(/^([a-z_0-9]+)/, (n) => quoteIdent(n))}`
  const lines = [`${header}\n${body};`]
  if (f.comment !== null) lines.push(`comment on ${kind} ${name} is ${literal(f.comment)};`)
  lines.push(...aclSql(`${kind} ${name}`, 'f', f.acl, f.owner, f.schema, catalog))
  return lines.join('\n')
}

function triggerSql(definition: string, enabled: string, table: string): string {
  const lines = [`${lower(definition)};`]
  const name = definition.match(/^CREATE (?:CONSTRAINT )?TRIGGER (\S+)/)?.[1]
  if (enabled === 'D') lines.push(`alter table ${table} disable trigger ${name};`)
  else if (enabled !== 'O')
    throw new Error(`schema-sql: trigger ${name} on ${table} has mode ${enabled}; render it here`)
  return lines.join('\n')
}

const COMMANDS: Record<string, string> = { r: 'select', a: 'insert', w: 'update', d: 'delete', '*': 'all' }
function policySql(t: TableInfo, p: TableInfo['policies'][number]): string {
  let sql = `create policy "${p.name.replace(/"/g, '""')}" on ${t.schema}.${quoteIdent(t.name)}`
  if (!p.permissive) sql += ' as restrictive'
  sql += `\n  for ${COMMANDS[p.command]} to ${p.roles.join(', ')}`
  if (p.using !== null) sql += `\n  using (${lower(p.using)})`
  if (p.check !== null) sql += `\n  with check (${lower(p.check)})`
  return `${sql};`
}

// ---- privileges --------------------------------------------------------------------------------------------

const PRIVILEGE_WORDS: Record<string, string> = {
  r: 'select',
  a: 'insert',
  w: 'update',
  d: 'delete',
  D: 'truncate',
  x: 'references',
  t: 'trigger',
  m: 'maintain',
  X: 'execute',
  U: 'usage',
  C: 'create',
}
const ORDER = 'rawdDxtmXUC'
// Every privilege of a kind of object, but `maintain` (m): PostgreSQL 17 added it, so PGlite (18) has it and
// PostgreSQL 15 does not, and `grant all` / `revoke all` carry it wherever it exists.
const ALL: Record<string, string> = { r: 'arwdDxt', f: 'X', T: 'U', n: 'UC', S: 'rwU' }

type Grants = Map<string, string>
const normal = (privileges: Iterable<string>) =>
  [...new Set(privileges)].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b)).join('')

function parseAcl(acl: Acl): Grants {
  const grants: Grants = new Map()
  for (const item of acl ?? []) {
    const m = item.match(/^("?)(.*)\1=([a-zA-Z*]*)\/(.+)$/)
    if (!m) throw new Error(`schema-sql: cannot read the ACL item ${item}`)
    if (m[3]!.includes('*')) throw new Error(`schema-sql: grant option in ${item}; render it here`)
    const grantee = m[2] === '' ? 'public' : m[2]!
    grants.set(grantee, normal([...(grants.get(grantee) ?? ''), ...m[3]!]))
  }
  return grants
}

/** What an object gets when it is created: Postgres's defaults, or the owner's default privileges (bootstrap.sql). */
function defaultGrants(objectType: string, owner: string, schema: string, catalog: SchemaCatalog): Grants {
  if (objectType === 'n') return new Map([[owner, ALL.n!]])
  const builtin: Grants = new Map([[owner, ALL[objectType]!]])
  if (objectType === 'f' || objectType === 'T') builtin.set('public', ALL[objectType]!)
  const global = catalog.defaultAcls.find((d) => d.role === owner && d.schema === '' && d.objectType === objectType)
  const grants = global ? parseAcl(global.acl) : builtin
  const inSchema = catalog.defaultAcls.find(
    (d) => d.role === owner && d.schema === schema && d.objectType === objectType,
  )
  for (const [grantee, privileges] of parseAcl(inSchema?.acl ?? null))
    grants.set(grantee, normal([...(grants.get(grantee) ?? ''), ...privileges]))
  return grants
}

const words = (privileges: string, objectType: string) =>
  objectType !== 'f' && [...ALL[objectType]!].every((p) => privileges.includes(p))
    ? 'all'
    : [...privileges].map((p) => PRIVILEGE_WORDS[p]).join(', ')

/**
 * The revokes and grants that turn what the object gets at creation into its ACL. Where the engine has `maintain`
 * (PGlite), a role that lost it lost everything (`revoke all`), and one that kept it had the others revoked by name;
 * both give the same ACL on PostgreSQL 15, which cannot tell the two apart (so the snapshot is rendered on PGlite).
 */
function aclSql(
  object: string,
  objectType: string,
  acl: Acl,
  owner: string,
  schema: string,
  catalog: SchemaCatalog,
): string[] {
  const initial = defaultGrants(objectType, owner, schema, catalog)
  const target = acl === null ? initial : parseAcl(acl)
  const ownerHas = target.get(owner) ?? ''
  if (acl !== null && ![...ALL[objectType]!].every((p) => ownerHas.includes(p))) {
    throw new Error(`schema-sql: ${object} has owner privileges ${ownerHas}; render them here`)
  }
  const revokes = new Map<string, string[]>()
  const grants = new Map<string, string[]>()
  const add = (map: Map<string, string[]>, what: string, grantee: string) =>
    map.set(what, [...(map.get(what) ?? []), grantee])
  for (const grantee of [...new Set([...initial.keys(), ...target.keys()])].filter((g) => g !== owner).sort()) {
    const has = initial.get(grantee) ?? ''
    const wants = target.get(grantee) ?? ''
    const missing = normal([...has].filter((p) => !wants.includes(p)))
    if (missing.includes('m')) {
      add(revokes, 'all', grantee)
      if (wants.replace('m', '')) add(grants, words(normal(wants.replace('m', '')), objectType), grantee)
    } else {
      // By name even when it is everything: `revoke all` would take `maintain` too.
      if (missing) add(revokes, [...missing].map((p) => PRIVILEGE_WORDS[p]).join(', '), grantee)
      const extra = normal([...wants].filter((p) => !has.includes(p) && p !== 'm'))
      if (extra) add(grants, words(extra, objectType), grantee)
    }
  }
  const lines = [
    ...[...revokes].map(([what, roles]) => `revoke ${what} on ${object} from ${roles.join(', ')};`),
    ...[...grants].map(([what, roles]) => `grant ${what} on ${object} to ${roles.join(', ')};`),
  ]
  // An ACL equal to the default but written down (by a revoke that took nothing, as `revoke all on schema private
  // from public` did): the same no-op revoke writes it down again, so the catalogs stay equal.
  if (acl !== null && !lines.length) {
    if (target.has('public')) throw new Error(`schema-sql: ${object} has its default ACL written down; render it here`)
    lines.push(`revoke all on ${object} from public;`)
  }
  return lines
}

/** Column grants, one line per role and privilege: `grant update (name, url) on public.t to authenticated;`. */
function columnAclSql(table: string, columns: { name: string; acl: Acl }[]): string[] {
  const byGrant = new Map<string, string[]>()
  for (const c of columns) {
    for (const [grantee, privileges] of parseAcl(c.acl)) {
      if (grantee === 'postgres') continue
      for (const p of privileges) {
        const key = `${PRIVILEGE_WORDS[p]}\u0000${grantee}`
        byGrant.set(key, [...(byGrant.get(key) ?? []), quoteIdent(c.name)])
      }
    }
  }
  return [...byGrant.keys()].sort().map((key) => {
    const [privilege, grantee] = key.split('\u0000') as [string, string]
    return `grant ${privilege} (${byGrant.get(key)!.join(', ')}) on ${table} to ${grantee};`
  })
}

// ---- text ----------------------------------------------------------------------------------------------------

/**
 * Deparsed SQL in lowercase, as the migrations are written: every word outside string literals, quoted
 * identifiers, dollar-quoted bodies and comments (unquoted identifiers are case-insensitive anyway).
 */
export function lower(sql: string): string {
  let out = ''
  let i = 0
  while (i < sql.length) {
    const ch = sql[i]!
    if (ch === "'") {
      const escape = /[eE]$/.test(out) && !/[a-zA-Z0-9_][eE]$/.test(out)
      let j = i + 1
      while (j < sql.length) {
        if (escape && sql[j] === '\\') j += 2
        else if (sql[j] === "'" && sql[j + 1] === "'") j += 2
        else if (sql[j] === "'") break
        else j++
      }
      out += sql.slice(i, j + 1)
      i = j + 1
    } else if (ch === '"') {
      const j = sql.indexOf('"', i + 1)
      const end = j < 0 ? sql.length : j + 1
      out += sql.slice(i, end)
      i = end
    } else if (ch === '$' && /^\$[a-zA-Z_]*\$/.test(sql.slice(i)) && !/[a-zA-Z0-9_]$/.test(out)) {
      const tag = sql.slice(i).match(/^\$[a-zA-Z_]*\$/)![0]
      const j = sql.indexOf(tag, i + tag.length)
      const end = j < 0 ? sql.length : j + tag.length
      out += sql.slice(i, end)
      i = end
    } else if (ch === '-' && sql[i + 1] === '-') {
      const j = sql.indexOf('\n', i)
      const end = j < 0 ? sql.length : j
      out += sql.slice(i, end)
      i = end
    } else {
      out += ch.toLowerCase()
      i++
    }
  }
  return out
}

/** A dollar-quoted literal whose tag does not occur in the text. */
function dollar(text: string, tag: string): string {
  let t = tag
  while (text.includes(`$${t}$`)) t += '_'
  return `$${t}$${text}$${t}$`
}
