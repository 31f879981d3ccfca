// The hosted lane (issue 36): on a database prepared as hosted Supabase prepares one today (hosted-database.ts),
// supabase/migrations and supabase/seed.sql apply as the non-superuser postgres, and every rpc and table call the
// SPA and the edge functions make — read from their source (api-calls.ts) — succeeds as the role that makes it
// (check-calls.ts). A missing grant fails it with one line per (role, object, privilege) and the code that needs it.
import { readdirSync } from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { roleUrl } from '../../../embedded-backend/db/platform'
import { scanApiCalls, type ApiCall } from './api-calls'
import { checkCalls, formatFindings, type Actor } from './check-calls'
import { repoRoot, startHostedDatabase, type HostedDatabase } from './hosted-database'

let hosted: HostedDatabase | null = null

beforeAll(async () => {
  hosted = await startHostedDatabase()
}, 300_000)

afterAll(async () => {
  await hosted?.stop()
})

/** The demo accounts of supabase/seed.sql, each signed in with a live session (the admin at aal2). */
const USERS = [
  { name: 'advertiser', id: '00000000-0000-4000-a000-000000000002', email: 'advertiser@growletter.test', aal: 'aal1' },
  { name: 'publisher', id: '00000000-0000-4000-a000-000000000003', email: 'publisher@growletter.test', aal: 'aal1' },
  { name: 'admin', id: '00000000-0000-4000-a000-000000000001', email: 'admin@growletter.test', aal: 'aal2' },
]
const SESSION = (i: number) => `00000000-0000-4000-b000-00000000000${i + 1}`

const ACTORS: Actor[] = [
  { name: 'visitor', role: 'anon', claims: { role: 'anon' } },
  ...USERS.map((u, i) => ({
    name: u.name,
    role: 'authenticated' as const,
    claims: {
      sub: u.id,
      role: 'authenticated',
      aud: 'authenticated',
      email: u.email,
      aal: u.aal,
      session_id: SESSION(i),
    },
  })),
  { name: 'edge function', role: 'service_role', claims: { role: 'service_role' } },
]

/** The sessions the actors' tokens name, as the auth server records a sign-in. */
async function signIn(db: HostedDatabase['db']) {
  for (const [i, u] of USERS.entries()) {
    await db.query('insert into auth.sessions (id, user_id, aal) values ($1, $2, $3) on conflict (id) do nothing', [
      SESSION(i),
      u.id,
      u.aal,
    ])
  }
}

/** `fn` on a connection as `role`, inside a transaction that is rolled back. */
async function inRolledBackTransaction<T>(role: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: roleUrl(hosted!.server.url, role) })
  await client.connect()
  try {
    await client.query('begin')
    return await fn(client)
  } finally {
    await client.query('rollback').catch(() => {})
    await client.end()
  }
}

const needsPostgres = () => {
  if (!hosted) console.warn('hosted lane: PostgreSQL is not installed here; nothing to check')
  return hosted !== null
}

describe('a database prepared as hosted Supabase prepares one', () => {
  it('has hosted’s roles: supabase_admin the superuser, postgres not, the API roles logging in through authenticator', async () => {
    if (!needsPostgres()) return
    const roles = await hosted!.db.query(`
      select rolname as name, rolsuper as super, rolinherit as inherit, rolcanlogin as login,
        rolcreaterole as createrole, rolcreatedb as createdb, rolbypassrls as bypassrls
      from pg_roles
      where rolname in ('supabase_admin', 'postgres', 'anon', 'authenticated', 'service_role', 'authenticator',
        'supabase_auth_admin')
      order by rolname`)
    const r = (
      name: string,
      super_: boolean,
      inherit: boolean,
      login: boolean,
      cr: boolean,
      cd: boolean,
      b: boolean,
    ) => ({
      name,
      super: super_,
      inherit,
      login,
      createrole: cr,
      createdb: cd,
      bypassrls: b,
    })
    expect(roles.rows).toEqual([
      r('anon', false, true, false, false, false, false),
      r('authenticated', false, true, false, false, false, false),
      r('authenticator', false, false, true, false, false, false),
      r('postgres', false, true, true, true, true, true),
      r('service_role', false, true, false, false, false, true),
      r('supabase_admin', true, true, true, true, true, true),
      r('supabase_auth_admin', false, false, true, true, false, false),
    ])
    const members = await hosted!.db.query<{ member: string; roles: string }>(`
      select m.rolname as member, string_agg(g.rolname, ' ' order by g.rolname) as roles
      from pg_auth_members a join pg_roles g on g.oid = a.roleid join pg_roles m on m.oid = a.member
      where m.rolname in ('postgres', 'authenticator') group by m.rolname order by m.rolname`)
    expect(members.rows).toEqual([
      { member: 'authenticator', roles: 'anon authenticated service_role' },
      {
        member: 'postgres',
        roles: 'anon authenticated pg_monitor pg_read_all_data pg_signal_backend service_role supabase_auth_admin',
      },
    ])
  })

  it('applied every migration and the seed as postgres, and the auth schema as supabase_auth_admin', async () => {
    if (!needsPostgres()) return
    const files = readdirSync(path.join(repoRoot, 'supabase/migrations')).filter((f) => /^\d{14}_.+\.sql$/.test(f))
    expect(hosted!.migration.applied).toEqual(files.sort())
    expect(hosted!.migration.seeded).toBe(true)
    const owners = await hosted!.db.query<{ schema: string; owner: string }>(`
      select n.nspname as schema, string_agg(distinct pg_get_userbyid(c.relowner), ' ') as owner
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname in ('public', 'private', 'auth') and c.relkind in ('r', 'p', 'v', 'm')
      group by n.nspname order by n.nspname`)
    expect(owners.rows).toEqual([
      { schema: 'auth', owner: 'supabase_auth_admin' },
      { schema: 'private', owner: 'postgres' },
      { schema: 'public', owner: 'postgres' },
    ])
    const seeded = await hosted!.db.query<{ n: number }>(`select count(*)::int as n from public.profiles`)
    expect(seeded.rows[0]!.n).toBeGreaterThan(0)
  })

  it('runs the migrations’ jobs on real pg_cron, scheduled by postgres', async () => {
    if (!needsPostgres()) return
    const ext = await hosted!.db.query<{ v: string }>(
      "select extversion as v from pg_extension where extname = 'pg_cron'",
    )
    expect(ext.rows[0]?.v).toBe(hosted!.cronVersion)
    const jobs = await hosted!.db.query<{ jobname: string; username: string; active: boolean }>(
      'select jobname, username, active from cron.job order by jobname',
    )
    expect(jobs.rows.length).toBeGreaterThan(5)
    expect(jobs.rows.filter((j) => j.username !== 'postgres' || !j.active)).toEqual([])
  })

  it('gives the API roles no default privileges, and PUBLIC no EXECUTE on functions postgres creates', async () => {
    if (!needsPostgres()) return
    const acl = await hosted!.db.query<{ entry: string }>(`
      select coalesce(d.defaclnamespace::regnamespace::text, '(all schemas)') || ' ' || d.defaclobjtype::text || ' ' ||
        case when a.grantee = 0 then 'PUBLIC' else a.grantee::regrole::text end as entry
      from pg_default_acl d cross join lateral aclexplode(d.defaclacl) a
      where d.defaclrole = 'postgres'::regrole
        and (a.grantee = 0 or a.grantee::regrole::text in ('anon', 'authenticated', 'service_role'))`)
    expect(acl.rows).toEqual([])
    const fn = await inRolledBackTransaction('postgres', async (c) => {
      await c.query('create function public.lane_probe() returns int language sql as $$ select 1 $$')
      return (await c.query("select has_function_privilege('anon', 'public.lane_probe()', 'execute') as ok")).rows[0]
    })
    expect(fn).toEqual({ ok: false })
  })
})

describe('every call the SPA and the edge functions make, as the role that makes it', () => {
  let calls: ApiCall[] = []

  it('reads every call from the source', () => {
    const scan = scanApiCalls(repoRoot)
    expect(scan.unresolved, 'calls whose target cannot be read from the source').toEqual([])
    calls = scan.calls
    const rpcs = calls.filter((c) => c.kind === 'rpc')
    // Every edge function's calls and the SPA's visitor calls are in it (a scan that found nothing would pass).
    expect(rpcs.length).toBeGreaterThan(50)
    expect(calls.some((c) => c.site.startsWith('supabase/functions/') && c.roles.includes('service_role'))).toBe(true)
    expect(calls.some((c) => c.site.startsWith('src/') && c.roles.includes('anon'))).toBe(true)
  })

  it('succeeds: no role lacks a privilege on anything its calls reach', async () => {
    if (!needsPostgres()) return
    await signIn(hosted!.db)
    const result = await inRolledBackTransaction('authenticator', (client) => checkCalls(client, calls, ACTORS))
    const sites = new Set(calls.map((c) => c.site)).size
    console.log(
      `hosted lane: ${calls.length} calls (${calls.filter((c) => c.kind === 'rpc').length} rpc, ` +
        `${calls.filter((c) => c.kind === 'table').length} table) at ${sites} places in the code, ` +
        `${result.checks} checks as ${ACTORS.length} actors; ${result.findings.length} missing`,
    )
    expect(
      result.findings,
      `missing grants (role · object · privilege ← code):\n${formatFindings(result.findings)}`,
    ).toEqual([])
  })

  it('fails when a grant the SPA uses is taken away (execute on advertiser_balance from authenticated)', async () => {
    if (!needsPostgres()) return
    await signIn(hosted!.db)
    const balance = calls.filter((c) => c.kind === 'rpc' && c.name === 'advertiser_balance')
    expect(balance.length).toBeGreaterThan(0)
    const advertiser = ACTORS.filter((a) => a.name === 'advertiser')
    const result = await inRolledBackTransaction('postgres', async (client) => {
      await client.query('revoke execute on function public.advertiser_balance() from authenticated, public')
      return checkCalls(client, balance, advertiser)
    })
    expect(result.findings.map((f) => `${f.role} · ${f.object} · ${f.operation}`)).toEqual([
      'authenticated · function public.advertiser_balance() · EXECUTE',
      'authenticated · function public.advertiser_balance() · refused',
    ])
    expect(result.findings[1]!.message).toBe('permission denied for function advertiser_balance')
    // Taken away in a transaction that was rolled back: the grant is there again.
    const after = await hosted!.db.query<{ ok: boolean }>(
      "select has_function_privilege('authenticated', 'public.advertiser_balance()', 'execute') as ok",
    )
    expect(after.rows[0]!.ok).toBe(true)
  })
})
