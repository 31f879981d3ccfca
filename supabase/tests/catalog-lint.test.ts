// Catalog lint: the security rules of ARCHITECTURE.md "Database conventions", checked on the migrated
// catalog so a new table or function that forgets them fails here.
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { testDb } from './helpers/db'

type Fn = {
  name: string
  schema: string
  source: string
  definer: boolean
  config: string[] | null
  anon: boolean
  authenticated: boolean
}

async function functionsIn(...schemas: string[]): Promise<Fn[]> {
  const db = await testDb()
  return (
    await db.query<Fn>(
      `select p.proname as name, p.pronamespace::regnamespace::text as schema, p.prosrc as source, p.prosecdef as definer,
        p.proconfig as config,
        has_function_privilege('anon', p.oid, 'execute') as anon,
        has_function_privilege('authenticated', p.oid, 'execute') as authenticated
      from pg_proc p where p.pronamespace::regnamespace::text = any($1::text[]) and p.prokind = 'f'`,
      [schemas],
    )
  ).rows
}
const publicFunctions = () => functionsIn('public')

// Functions that write a wallet table but that browser code may call, and why that is safe.
const allowedWalletWriters: Record<string, string> = {
  ensure_wallet_exists: "creates the caller's own empty wallet; moves no money",
  claim_signup_bonus: 'pays at most 10 credits once, to the calling advertiser, at balance 0 (brief, SPEC §4)',
  request_payout: "locks the caller's wallet to read it; only inserts a payout request",
  admin_mark_payout_paid: 'admins only (require_admin), re-checks the balance under the lock',
  admin_retry_payout: 'admins only (require_admin); locks the wallet to re-check the balance, moves no money',
  decide_dispute: 'admins only (require_admin); refunds through refund_subscription, pending rows only',
  open_dispute:
    'advertisers (require_aal2), their own subscribers only; moves no money: takes the settlement date off the disputed pending rows until the decision',
  admin_set_campaign_status:
    'admins only (require_admin); locks the wallet and releases reservations of a banned campaign',
  admin_refund_subscription: 'admins only (require_admin); cancels pending rows only',
  admin_refund_held_money:
    "admins only (require_admin); a suspended account's pending rows only, through refund_subscription",
  admin_set_source_status: 'admins only (require_admin); rejecting or banning refunds pending rows of that source only',
}

describe('catalog lint', () => {
  it('enables row-level security on every public table', async () => {
    const db = await testDb()
    const r = await db.query<{ relname: string }>(
      `select relname from pg_class where relnamespace = 'public'::regnamespace and relkind in ('r', 'p') and not relrowsecurity`,
    )
    expect(r.rows.map((x) => x.relname)).toEqual([])
  })

  it('fixes search_path to empty on every security definer function', async () => {
    const unsafe = (await publicFunctions()).filter((f) => f.definer && !(f.config ?? []).includes('search_path=""'))
    expect(unsafe.map((f) => f.name)).toEqual([])
  })

  it('lets no anon or authenticated caller reach a function that writes a wallet table, except the reviewed ones', async () => {
    // The ledger's helpers live in private (post_ledger, lock_wallet, …): calls are followed through both schemas.
    const fns = (await functionsIn('public', 'private')).map((f) => ({ ...f, qualified: `${f.schema}.${f.name}` }))
    const writers = new Set(
      fns
        .filter((f) =>
          /(insert\s+into|update|delete\s+from)\s+public\.wallet_(balances|transactions)\b/i.test(f.source),
        )
        .map((f) => f.qualified),
    )
    // Whoever calls a writer is a writer: follow calls until nothing changes.
    for (let grown = true; grown;) {
      grown = false
      for (const f of fns) {
        if (!writers.has(f.qualified) && [...writers].some((w) => f.source.includes(`${w}(`))) {
          writers.add(f.qualified)
          grown = true
        }
      }
    }
    expect(writers).toContain('private.post_ledger')
    expect(writers).toContain('public.confirm_subscription')
    const exposed = fns.filter((f) => writers.has(f.qualified) && (f.anon || f.authenticated))
    expect(exposed.every((f) => f.schema === 'public')).toBe(true)
    expect(exposed.map((f) => f.name).sort()).toEqual(Object.keys(allowedWalletWriters).sort())
    expect(fns.filter((f) => writers.has(f.qualified) && f.anon).map((f) => f.name)).toEqual([])
    for (const f of exposed.filter((x) => x.name.startsWith('admin_'))) {
      expect(f.source).toContain('perform private.require_admin()')
    }
  })

  it('documents every public table, view and function with a comment', async () => {
    const db = await testDb()
    const r = await db.query<{ name: string }>(`
      select relname as name from pg_class
      where relnamespace = 'public'::regnamespace and relkind in ('r', 'p', 'v') and obj_description(oid, 'pg_class') is null
      union all
      select proname from pg_proc
      where pronamespace = 'public'::regnamespace and prokind = 'f' and obj_description(oid, 'pg_proc') is null`)
    expect(r.rows.map((x) => x.name)).toEqual([])
  })

  it('creates views with invoker rights so the table policies apply', async () => {
    const db = await testDb()
    const r = await db.query<{ relname: string }>(`
      select relname from pg_class where relnamespace = 'public'::regnamespace and relkind = 'v'
        and not coalesce('security_invoker=true' = any (reloptions), false)`)
    expect(r.rows.map((x) => x.relname)).toEqual([])
  })

  it('has a test asserting every message a function raises', async () => {
    const messages = new Set<string>()
    for (const f of await publicFunctions()) {
      for (const m of f.source.matchAll(/raise exception '((?:[^']|'')*)'/g)) messages.add(m[1]!.replace(/''/g, "'"))
    }
    const dir = import.meta.dirname
    const files = (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.test.ts'))
    const tests = (await Promise.all(files.map((f) => readFile(path.join(dir, f), 'utf8'))))
      .join('\n')
      .replace(/\\'/g, "'")
    expect(messages.size).toBeGreaterThan(30)
    // A '%' in a message is a placeholder: any identifier in the test satisfies it.
    const asserted = (m: string) =>
      new RegExp(m.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/%/g, '[\\w.]+')).test(tests)
    expect([...messages].filter((m) => !asserted(m))).toEqual([])
  })

  it('indexes every foreign key (policies and cascades filter on them)', async () => {
    const db = await testDb()
    const r = await db.query<{ name: string }>(`
      select con.conname as name from pg_constraint con
      where con.contype = 'f' and con.connamespace = 'public'::regnamespace
        and not exists (
          select 1 from pg_index i
          where i.indrelid = con.conrelid
            and (i.indkey::int2[])[0:cardinality(con.conkey) - 1] = con.conkey
        )`)
    expect(r.rows.map((x) => x.name)).toEqual([])
  })
})
