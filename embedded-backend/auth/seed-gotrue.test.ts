// supabase/seed.sql runs on GoTrue's real auth schema (supabase start and db reset run it there) and leaves rows
// GoTrue can read: every NOT NULL column filled, the token columns '' and not NULL (GoTrue reads them into Go strings,
// and a NULL there breaks every sign-in of that user). The embedded backend builds the auth schema from
// auth/gotrue-schema.sql, as supabase_auth_admin owns it on hosted Supabase, then the migrations, then the seed; the
// demo users then sign in through the auth API, the admin up to aal2 with the seeded TOTP factor.
// Runs on the engine TEST_DATABASE_URL chooses (PGlite or PostgreSQL; scripts/test.ts runs it on both).
import { Secret, TOTP } from 'otpauth'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { applyGoTrueSchema } from './schema'
import { openDatabase, type Db } from '../db/database'
import { initdbSnapshot } from '../db/snapshot'
import { engine, startAuthTestBackend, type AuthTestBackend } from '../testing/auth-backend'
import { postgresDatabase } from '../testing/rest-fixture'

/** auth.users columns GoTrue's User model reads into non-pointer Go types: NULL in any of them fails the read. */
const USER_COLUMNS_GOTRUE_NEEDS = [
  'instance_id',
  'aud',
  'role',
  'confirmation_token',
  'recovery_token',
  'email_change_token_new',
  'email_change_token_current',
  'email_change',
  'phone_change',
  'phone_change_token',
  'reauthentication_token',
  'email_change_confirm_status',
  'raw_app_meta_data',
  'raw_user_meta_data',
  'created_at',
  'updated_at',
]

let backend: AuthTestBackend
beforeAll(async () => {
  // No background jobs: the seeded ESP connection would start deliveries that outlive the test.
  backend = await startAuthTestBackend({ seed: true, cron: false })
})
afterAll(() => backend?.close())

const column = async (table: string, name: string) =>
  (
    await backend.db.query<{ nullable: string; fallback: string | null }>(
      `select is_nullable as nullable, column_default as fallback from information_schema.columns
       where table_schema = 'auth' and table_name = $1 and column_name = $2`,
      [table, name],
    )
  ).rows[0]

describe(`seed.sql on GoTrue's auth schema (${engine})`, () => {
  it('ran on the schema GoTrue defines, not on a lenient stand-in', async () => {
    // The traps of the real schema are there: tokens without a default, factor timestamps without one.
    expect(await column('users', 'confirmation_token')).toEqual({ nullable: 'YES', fallback: null })
    expect(await column('users', 'email_change')).toEqual({ nullable: 'YES', fallback: null })
    expect(await column('mfa_factors', 'created_at')).toEqual({ nullable: 'NO', fallback: null })
    expect(await column('mfa_factors', 'updated_at')).toEqual({ nullable: 'NO', fallback: null })
    expect(await column('identities', 'provider_id')).toEqual({ nullable: 'NO', fallback: null })
    const owners = await backend.db.query<{ owner: string }>(
      `select distinct pg_get_userbyid(relowner) as owner from pg_class
       where relnamespace = 'auth'::regnamespace and relkind = 'r' and relname <> 'otp_failures'`,
    )
    expect(owners.rows).toEqual([{ owner: 'supabase_auth_admin' }])
    await expect(
      backend.db.query(
        `insert into auth.mfa_factors (id, user_id, factor_type, status, secret)
         values (gen_random_uuid(), '00000000-0000-4000-a000-000000000002', 'totp', 'unverified', 'x')`,
      ),
    ).rejects.toThrow(/null value in column "created_at"/)
  })

  it('leaves every demo user, identity and factor readable by GoTrue: no NULL where GoTrue reads a value', async () => {
    const users = await backend.db.query<{ email: string; nulls: string[] }>(
      `select email, array_remove(array[${USER_COLUMNS_GOTRUE_NEEDS.map(
        (c) => `case when ${c} is null then '${c}' end`,
      ).join(', ')}], null) as nulls
       from auth.users where email like '%@growletter.test' order by email`,
    )
    expect(users.rows).toHaveLength(9)
    expect(users.rows.filter((u) => u.nulls.length > 0)).toEqual([])
    const tokens = await backend.db.query<{ n: number }>(
      "select count(*)::int as n from auth.users where confirmation_token <> '' or recovery_token <> ''",
    )
    expect(tokens.rows[0]?.n).toBe(0)
    const identities = await backend.db.query<{ provider: string; n: number }>(
      `select provider, count(*)::int as n from auth.identities i join auth.users u on u.id = i.user_id
       where u.email like '%@growletter.test' and i.provider_id = u.id::text and i.created_at is not null
         and i.updated_at is not null and i.identity_data ->> 'email' = u.email
       group by provider`,
    )
    expect(identities.rows).toEqual([{ provider: 'email', n: 9 }])
    const factors = await backend.db.query(
      `select friendly_name, factor_type::text, status::text from auth.mfa_factors
       where friendly_name is not null and secret is not null and created_at is not null and updated_at is not null`,
    )
    expect(factors.rows).toEqual([{ friendly_name: 'Demo authenticator', factor_type: 'totp', status: 'verified' }])
  })

  it('lets the demo users sign in with the documented password, and the admin reach aal2 with the seeded factor', async () => {
    for (const email of ['advertiser@growletter.test', 'publisher@growletter.test', 'jordan@growletter.test']) {
      const { data, error } = await backend.client().auth.signInWithPassword({ email, password: 'growletter-demo' })
      expect(error).toBeNull()
      expect(data.user?.email).toBe(email)
      expect(data.user?.identities?.map((i) => i.provider)).toEqual(['email'])
    }
    const admin = backend.client()
    const signIn = await admin.auth.signInWithPassword({ email: 'admin@growletter.test', password: 'growletter-demo' })
    expect(signIn.error).toBeNull()
    const factors = await admin.auth.mfa.listFactors()
    expect(factors.data?.totp.map((f) => [f.friendly_name, f.status])).toEqual([['Demo authenticator', 'verified']])
    const factorId = factors.data!.totp[0]!.id
    const code = new TOTP({ secret: Secret.fromBase32('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP') }).generate()
    const verified = await admin.auth.mfa.challengeAndVerify({ factorId, code })
    expect(verified.error).toBeNull()
    const aal = await admin.auth.mfa.getAuthenticatorAssuranceLevel()
    expect(aal.data?.currentLevel).toBe('aal2')
    const wrong = await backend.client().auth.signInWithPassword({
      email: 'advertiser@growletter.test',
      password: 'not-the-password',
    })
    expect(wrong.error?.message).toBe('Invalid login credentials')
  })
})

describe(`gotrue-schema.sql on a plain database (${engine})`, () => {
  let db: Db
  let drop: (() => Promise<void>) | undefined
  beforeAll(async () => {
    if (engine === 'postgres') {
      const database = await postgresDatabase()
      drop = database.drop
      db = await openDatabase({ databaseUrl: database.url })
    } else {
      db = await openDatabase({ loadDataDir: await initdbSnapshot() })
    }
    // Roles belong to the server, not the database: on PostgreSQL another test may have made it already.
    await db.exec(`do $$ begin
      if not exists (select 1 from pg_roles where rolname = 'supabase_auth_admin') then
        create role supabase_auth_admin nologin noinherit;
      end if;
    end $$`)
  })
  afterAll(async () => {
    await db?.close()
    await drop?.()
  })

  it('applies on its own, twice, as supabase_auth_admin would own it', async () => {
    await applyGoTrueSchema(db)
    await applyGoTrueSchema(db)
    const tables = await db.query<{ name: string; owner: string; rls: boolean }>(
      `select relname as name, pg_get_userbyid(relowner) as owner, relrowsecurity as rls from pg_class
       where relnamespace = 'auth'::regnamespace and relkind = 'r' order by relname`,
    )
    expect(tables.rows.map((t) => t.name)).toEqual([
      'audit_log_entries',
      'flow_state',
      'identities',
      'instances',
      'mfa_amr_claims',
      'mfa_challenges',
      'mfa_factors',
      'one_time_tokens',
      'refresh_tokens',
      'schema_migrations',
      'sessions',
      'users',
    ])
    expect(tables.rows.every((t) => t.owner === 'supabase_auth_admin' && t.rls)).toBe(true)
    expect((await db.query('select auth.uid() is null as ok')).rows).toEqual([{ ok: true }])
  })
})
