/**
 * Runs each call api-calls.ts found as the role that makes it, on a connection that may `set role` to the API roles
 * (`authenticator`, as PostgREST connects; or `postgres`, a member of them), and reports every privilege it lacks.
 *
 * Two signals per call, so a report names the grant to write:
 * - the catalog: has_table_privilege / has_column_privilege / has_function_privilege for each table, column and
 *   function the call reaches (the columns it reads, writes, filters on and joins embedded resources by);
 * - the call itself, inside a savepoint that is rolled back: `select … limit 0`, an insert, update, upsert or delete
 *   that touches no row, an rpc with null arguments. Only Postgres's own refusal counts ("permission denied for …",
 *   SQLSTATE 42501): our functions raise 42501 too, with messages of their own ("Only an admin can do this"), and
 *   any other error (a null argument refused, a row not found) says nothing about grants.
 * The caller opens and ends the transaction, so a test can revoke a grant first and see it reported.
 */
import type pg from 'pg'
import { parseSelect, type SelectItem } from '../../../embedded-backend/rest/select-parser'
import type { ApiCall, ApiRole, RpcCall, TableAccess } from './api-calls'

export type Actor = { name: string; role: ApiRole; claims: Record<string, unknown> }

export type Finding = {
  role: ApiRole
  /** `table public.campaigns`, `column public.campaigns.name`, `function public.advertiser_balance()`. */
  object: string
  /** The privilege missing (SELECT, INSERT, UPDATE, DELETE, EXECUTE), or what went wrong. */
  operation: string
  sites: string[]
  /** Postgres's message when the call itself was refused. */
  message?: string
}

export type CheckResult = { findings: Finding[]; checks: number }

type Catalog = {
  columns: Map<string, string[]>
  functions: Map<string, Fn[]>
  /** Foreign keys of public: name, from table and columns, to table and columns. */
  keys: { name: string; from: string; fromColumns: string[]; to: string; toColumns: string[] }[]
  primaryKeys: Map<string, string[]>
}

type Fn = {
  oid: number
  signature: string
  /** Input parameters in order, with their type and whether they have a default. */
  params: { name: string; type: string; hasDefault: boolean }[]
}

const PERMISSION_DENIED = /^permission denied for /

/** Checks every call as every actor of its roles; the connection must be inside a transaction. */
export async function checkCalls(client: pg.ClientBase, calls: ApiCall[], actors: Actor[]): Promise<CheckResult> {
  const catalog = await readCatalog(client)
  const findings = new Map<string, Finding>()
  let checks = 0
  const report = (f: Omit<Finding, 'sites'>, site: string) => {
    const key = `${f.role}|${f.object}|${f.operation}|${f.message ?? ''}`
    const found = findings.get(key)
    if (found) {
      if (!found.sites.includes(site)) found.sites.push(site)
    } else findings.set(key, { ...f, sites: [site] })
  }
  for (const call of calls) {
    for (const actor of actors.filter((a) => call.roles.includes(a.role))) {
      checks++
      const plan = call.kind === 'rpc' ? planRpc(call, catalog) : planTable(call, catalog)
      for (const problem of plan.problems) report({ role: actor.role, ...problem }, call.site)
      for (const missing of await missingPrivileges(client, actor.role, plan.privileges))
        report({ role: actor.role, ...missing }, call.site)
      for (const statement of plan.statements) {
        const refused = await runAs(client, actor, statement)
        if (refused)
          report({ role: actor.role, object: statement.object, operation: 'refused', message: refused }, call.site)
      }
    }
  }
  return { findings: [...findings.values()], checks }
}

/** One line per finding: role · object · operation (message) ← where the code makes the call. */
export function formatFindings(findings: Finding[]): string {
  return findings
    .map(
      (f) =>
        `${f.role} · ${f.object} · ${f.operation}${f.message ? ` (${f.message})` : ''}\n    ← ${f.sites.join(', ')}`,
    )
    .join('\n')
}

type Privilege = {
  kind: 'table' | 'column' | 'any column' | 'function'
  table?: string
  column?: string
  oid?: number
  object: string
  privilege: string
}
type Statement = { object: string; sql: string }
type Plan = { privileges: Privilege[]; statements: Statement[]; problems: Omit<Finding, 'sites' | 'role'>[] }

async function readCatalog(client: pg.ClientBase): Promise<Catalog> {
  const columns = await client.query<{ t: string; cols: string[] }>(`
    select c.relname as t, array_agg(a.attname::text order by a.attnum) as cols
    from pg_class c join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
    where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'f')
    group by c.relname`)
  const functions = await client.query<{
    oid: number
    name: string
    signature: string
    names: string[] | null
    types: string[]
    defaults: number
  }>(`
    select p.oid::int as oid, p.proname as name, p.oid::regprocedure::text as signature,
      p.proargnames::text[] as names, array(select format_type(t, null) from unnest(p.proargtypes) t) as types,
      p.pronargdefaults::int as defaults
    from pg_proc p where p.pronamespace = 'public'::regnamespace and p.prokind = 'f'`)
  const keys = await client.query<{ name: string; from: string; from_cols: string[]; to: string; to_cols: string[] }>(`
    select k.conname as name, k.conrelid::regclass::text as from, k.confrelid::regclass::text as to,
      array(select attname::text from pg_attribute where attrelid = k.conrelid and attnum = any (k.conkey)) as from_cols,
      array(select attname::text from pg_attribute where attrelid = k.confrelid and attnum = any (k.confkey)) as to_cols
    from pg_constraint k where k.contype = 'f' and k.connamespace = 'public'::regnamespace`)
  const primary = await client.query<{ t: string; cols: string[] }>(`
    select k.conrelid::regclass::text as t,
      array(select attname::text from pg_attribute where attrelid = k.conrelid and attnum = any (k.conkey)) as cols
    from pg_constraint k where k.contype = 'p' and k.connamespace = 'public'::regnamespace`)
  const fns = new Map<string, Fn[]>()
  for (const f of functions.rows) {
    // proargnames lists every argument (out ones too); proargtypes only the inputs, which come first.
    const params = f.types.map((type, i) => ({
      name: f.names?.[i] ?? '',
      type,
      hasDefault: i >= f.types.length - f.defaults,
    }))
    fns.set(f.name, [...(fns.get(f.name) ?? []), { oid: f.oid, signature: `public.${f.signature}`, params }])
  }
  const bare = (t: string) => t.replace(/^public\./, '')
  return {
    columns: new Map(columns.rows.map((r) => [r.t, r.cols])),
    functions: fns,
    keys: keys.rows.map((k) => ({
      name: k.name,
      from: bare(k.from),
      fromColumns: k.from_cols,
      to: bare(k.to),
      toColumns: k.to_cols,
    })),
    primaryKeys: new Map(primary.rows.map((r) => [bare(r.t), r.cols])),
  }
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`

/** The privileges a table access needs, and the statements that exercise them. */
function planTable(call: TableAccess, catalog: Catalog): Plan {
  const plan: Plan = { privileges: [], statements: [], problems: [] }
  const columns = catalog.columns.get(call.table)
  const object = `table public.${call.table}`
  if (!columns) {
    plan.problems.push({ object, operation: 'no such table or view' })
    return plan
  }
  const needColumns = (table: string, cols: Iterable<string>, privilege: string) => {
    const known = catalog.columns.get(table) ?? []
    for (const column of new Set(cols)) {
      if (!known.includes(column))
        plan.problems.push({ object: `column public.${table}.${column}`, operation: 'no such column' })
      else
        plan.privileges.push({ kind: 'column', table, column, privilege, object: `column public.${table}.${column}` })
    }
  }
  const reads = call.select === null ? null : readsOf(call.table, parseSafe(call.select, plan, object), catalog, plan)
  const table = `public.${ident(call.table)}`
  const filters = call.filters.filter((c) => columns.includes(c))
  needColumns(call.table, call.filters, 'SELECT')
  const where = ['false', ...filters.map((c) => `${ident(c)} is null`)].join(' and ')
  const returning = reads ? ` returning ${reads.own.length ? reads.own.map(ident).join(', ') : '1'}` : ''

  if (call.operation === 'select') {
    const own = [...new Set([...(reads?.own ?? []), ...filters])]
    needColumns(call.table, reads?.own ?? [], 'SELECT')
    plan.statements.push({
      object,
      sql: `select ${own.length ? own.map(ident).join(', ') : 'count(*)'} from ${table} limit 0`,
    })
  } else if (call.operation === 'delete') {
    plan.privileges.push({ kind: 'table', table: call.table, privilege: 'DELETE', object })
    plan.statements.push({ object, sql: `delete from ${table} where ${where}${returning}` })
  } else {
    const privilege = call.operation === 'update' ? 'UPDATE' : 'INSERT'
    if (call.writes === null) {
      // What the code writes is not in the source (an object built elsewhere): at least one column must be writable.
      plan.privileges.push({ kind: 'any column', table: call.table, privilege, object })
    } else {
      needColumns(call.table, call.writes, privilege)
      if (call.operation === 'upsert' && !call.ignoreDuplicates) needColumns(call.table, call.writes, 'UPDATE')
      const cols = call.writes.filter((c) => columns.includes(c))
      if (cols.length) {
        const nulls = cols.map(() => 'null').join(', ')
        if (call.operation === 'update') {
          plan.statements.push({
            object,
            sql: `update ${table} set ${cols.map((c) => `${ident(c)} = null`).join(', ')} where ${where}${returning}`,
          })
        } else {
          let sql = `insert into ${table} (${cols.map(ident).join(', ')}) select ${nulls} where false`
          if (call.operation === 'upsert') {
            const target = call.onConflict?.split(',').map((c) => c.trim()) ?? catalog.primaryKeys.get(call.table) ?? []
            // PostgREST's merge-duplicates sets every column of the payload, the conflict target's too.
            const set = cols
            sql +=
              call.ignoreDuplicates || set.length === 0
                ? ` on conflict (${target.map(ident).join(', ')}) do nothing`
                : ` on conflict (${target.map(ident).join(', ')}) do update set ${set.map((c) => `${ident(c)} = excluded.${ident(c)}`).join(', ')}`
          }
          plan.statements.push({ object, sql: sql + returning })
        }
      }
    }
    if (reads) needColumns(call.table, reads.own, 'SELECT')
  }
  for (const embed of reads?.embeds ?? []) {
    needColumns(embed.table, embed.columns, 'SELECT')
    const cols = embed.columns.filter((c) => catalog.columns.get(embed.table)?.includes(c))
    plan.statements.push({
      object: `table public.${embed.table}`,
      sql: `select ${cols.length ? cols.map(ident).join(', ') : 'count(*)'} from public.${ident(embed.table)} limit 0`,
    })
  }
  return plan
}

function parseSafe(select: string, plan: Plan, object: string): SelectItem[] {
  try {
    return parseSelect(select)
  } catch (error) {
    plan.problems.push({ object, operation: `select list cannot be parsed: ${(error as Error).message}` })
    return []
  }
}

/**
 * The columns a select list reads of its table (`*` = every column; the columns an embed joins by) and of each
 * embedded table, resolved as PostgREST resolves an embed: by table name, foreign-key name or column name.
 */
function readsOf(
  table: string,
  items: SelectItem[],
  catalog: Catalog,
  plan: Plan,
): { own: string[]; embeds: { table: string; columns: string[] }[] } {
  const own: string[] = []
  const embeds: { table: string; columns: string[] }[] = []
  for (const item of items) {
    if (item.kind === 'star') own.push(...(catalog.columns.get(table) ?? []))
    else if (item.kind === 'field' && isCount(item, table, catalog)) continue
    else if (item.kind === 'field') own.push(item.field.name)
    else if (item.kind === 'embed') {
      const key = embedKey(table, item.name, item.hint, catalog)
      if (!key) {
        plan.problems.push({ object: `table public.${table}`, operation: `embedded resource ${item.name} not found` })
        continue
      }
      own.push(...key.ownColumns)
      const child = readsOf(key.table, item.children, catalog, plan)
      embeds.push({ table: key.table, columns: [...new Set([...child.own, ...key.otherColumns])] }, ...child.embeds)
    }
  }
  return { own: [...new Set(own)], embeds }
}

/** `table(count)`: PostgREST's count of the embedded rows, unless the table has a column of that name. */
function isCount(item: Extract<SelectItem, { kind: 'field' }>, table: string, catalog: Catalog) {
  return item.field.name === 'count' && item.field.path.length === 0 && !catalog.columns.get(table)?.includes('count')
}

function embedKey(
  table: string,
  name: string,
  hint: string | undefined,
  catalog: Catalog,
): { table: string; ownColumns: string[]; otherColumns: string[] } | null {
  const candidates = catalog.keys
    .flatMap((k) => [
      k.from === table ? { key: k, other: k.to, ownColumns: k.fromColumns, otherColumns: k.toColumns } : null,
      k.to === table ? { key: k, other: k.from, ownColumns: k.toColumns, otherColumns: k.fromColumns } : null,
    ])
    .filter((c) => c !== null)
  const match = candidates.find(
    (c) =>
      (c.other === name &&
        (!hint || c.key.name === hint || c.ownColumns.includes(hint) || c.otherColumns.includes(hint))) ||
      c.key.name === name ||
      (c.ownColumns.length === 1 && c.ownColumns[0] === name),
  )
  return match ? { table: match.other, ownColumns: match.ownColumns, otherColumns: match.otherColumns } : null
}

/** The overloads an rpc's named arguments select (as PostgREST picks one) and the call with null arguments. */
function planRpc(call: RpcCall, catalog: Catalog): Plan {
  const plan: Plan = { privileges: [], statements: [], problems: [] }
  const overloads = catalog.functions.get(call.name) ?? []
  for (const args of call.args) {
    const label = `function public.${call.name}(${args.keys.join(', ')}${args.complete ? '' : ', …'})`
    const fn = overloads.find((f) => {
      const names = f.params.map((p) => p.name)
      if (!args.keys.every((k) => names.includes(k))) return false
      return !args.complete || f.params.every((p) => p.hasDefault || args.keys.includes(p.name))
    })
    if (!fn) {
      plan.problems.push({ object: label, operation: 'no function with these arguments' })
      continue
    }
    plan.privileges.push({ kind: 'function', oid: fn.oid, privilege: 'EXECUTE', object: `function ${fn.signature}` })
    const given = fn.params.filter((p) => args.keys.includes(p.name) || !p.hasDefault)
    const argList = given.map((p) => `${ident(p.name)} => null::${p.type}`).join(', ')
    plan.statements.push({
      object: `function ${fn.signature}`,
      sql: `select * from public.${ident(call.name)}(${argList})`,
    })
  }
  return plan
}

/** The privileges `role` lacks, asked of the catalog in one query. */
async function missingPrivileges(
  client: pg.ClientBase,
  role: ApiRole,
  privileges: Privilege[],
): Promise<Omit<Finding, 'sites' | 'role'>[]> {
  if (privileges.length === 0) return []
  const r = await client.query<{ i: number; ok: boolean }>(
    `select i, case p->>'kind'
         when 'table' then has_table_privilege($1, format('public.%I', p->>'table'), p->>'privilege')
         when 'column' then has_column_privilege($1, format('public.%I', p->>'table'), p->>'column', p->>'privilege')
         when 'any column' then has_any_column_privilege($1, format('public.%I', p->>'table'), p->>'privilege')
         else has_function_privilege($1, (p->>'oid')::oid, 'EXECUTE') end as ok
     from jsonb_array_elements($2::jsonb) with ordinality as x (p, i)`,
    [role, JSON.stringify(privileges)],
  )
  const missing = r.rows.filter((row) => !row.ok).map((row) => privileges[Number(row.i) - 1]!)
  return missing.map((p) => ({
    object: p.object,
    operation: p.kind === 'any column' ? `${p.privilege} (any column)` : p.privilege,
  }))
}

/** Runs `statement` as the actor in a savepoint that is rolled back; Postgres's own refusal, or null. */
async function runAs(client: pg.ClientBase, actor: Actor, statement: Statement): Promise<string | null> {
  await client.query('savepoint api_call')
  try {
    await client.query(
      `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true),
         set_config('request.jwt.claim.sub', coalesce($3, ''), true), set_config('request.jwt.claim.role', $1, true)`,
      [actor.role, JSON.stringify(actor.claims), (actor.claims.sub as string | undefined) ?? null],
    )
    await client.query(statement.sql)
    return null
  } catch (error) {
    const e = error as { code?: string; message: string }
    return e.code === '42501' && PERMISSION_DENIED.test(e.message) ? e.message : null
  } finally {
    await client.query('rollback to savepoint api_call')
  }
}
