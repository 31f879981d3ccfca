/**
 * How a new database comes to be (issue 20, "the real first start"): a new folder is a copy of the
 * initdb template `npm install` made, never a half-copied one, and never over an existing database;
 * pending migrations go in one transaction, and a failing one still fails alone, named, with the ones
 * before it applied, as the Supabase CLI leaves them. The auth schema runs again only when it changed.
 */
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AUTH_SCHEMA_MARK, ensureAuthSchema } from '../auth/schema'
import { describeStartup } from '../cli'
import { openDatabase, type Db } from './database'
import { migrate, supabaseDir } from './migrate'
import { openBackendDb, prepareMigratedDumps } from './open-backend-db'
import {
  copyInitdbTemplate,
  initdbSnapshot,
  initdbTemplateDir,
  makeInitdbTemplate,
  migratedSnapshotFile,
  readSnapshot,
} from './snapshot'

let scratch: string
beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'growletter-startup-'))
})
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true })
})

describe('copyInitdbTemplate', () => {
  /** A stand-in template: what matters to the copy is a folder with PG_VERSION and files below it. */
  async function fakeTemplate(cacheDir: string) {
    const dir = await initdbTemplateDir(cacheDir)
    await mkdir(path.join(dir, 'base', '1'), { recursive: true })
    await writeFile(path.join(dir, 'PG_VERSION'), '18\n')
    await writeFile(path.join(dir, 'base', '1', '1259'), Buffer.alloc(8192, 7))
    return dir
  }

  it('returns false and creates nothing when there is no template', async () => {
    const cacheDir = path.join(scratch, 'no-cache')
    const dataDir = path.join(scratch, 'none', 'db')
    expect(await copyInitdbTemplate(dataDir, cacheDir)).toBe(false)
    expect(existsSync(dataDir)).toBe(false)
  })

  it('ignores an incomplete template (no PG_VERSION)', async () => {
    const cacheDir = path.join(scratch, 'incomplete')
    await mkdir(path.join(await initdbTemplateDir(cacheDir), 'base'), { recursive: true })
    const dataDir = path.join(scratch, 'incomplete-db', 'db')
    expect(await copyInitdbTemplate(dataDir, cacheDir)).toBe(false)
    expect(existsSync(dataDir)).toBe(false)
  })

  it('copies the whole template into a new folder and leaves no temporary folder beside it', async () => {
    const cacheDir = path.join(scratch, 'cache-a')
    await fakeTemplate(cacheDir)
    const parent = path.join(scratch, 'copy-a')
    const dataDir = path.join(parent, 'db')
    expect(await copyInitdbTemplate(dataDir, cacheDir)).toBe(true)
    expect(await readFile(path.join(dataDir, 'PG_VERSION'), 'utf8')).toBe('18\n')
    expect((await readFile(path.join(dataDir, 'base', '1', '1259'))).equals(Buffer.alloc(8192, 7))).toBe(true)
    expect(await readdir(parent)).toEqual(['db'])
  })

  it('never overwrites an existing database folder', async () => {
    const cacheDir = path.join(scratch, 'cache-b')
    await fakeTemplate(cacheDir)
    const dataDir = path.join(scratch, 'copy-b', 'db')
    await mkdir(dataDir, { recursive: true })
    await writeFile(path.join(dataDir, 'PG_VERSION'), 'mine\n')
    expect(await copyInitdbTemplate(dataDir, cacheDir)).toBe(false)
    expect(await readFile(path.join(dataDir, 'PG_VERSION'), 'utf8')).toBe('mine\n')
  })

  it('copies are independent of the template', async () => {
    const cacheDir = path.join(scratch, 'cache-c')
    const template = await fakeTemplate(cacheDir)
    const dataDir = path.join(scratch, 'copy-c', 'db')
    await copyInitdbTemplate(dataDir, cacheDir)
    await writeFile(path.join(dataDir, 'base', '1', '1259'), 'changed')
    expect((await readFile(path.join(template, 'base', '1', '1259'))).length).toBe(8192)
  })
})

describe('makeInitdbTemplate (a real PGlite initdb)', () => {
  let cacheDir: string
  let made: { dir: string; made: boolean }
  beforeAll(async () => {
    cacheDir = path.join(scratch, 'real-cache')
    // A template of another PGlite version, which the new one replaces.
    await mkdir(path.join(cacheDir, 'pglite-0.0.1-initdb'), { recursive: true })
    made = await makeInitdbTemplate(cacheDir)
  }, 120_000)

  it('makes a data directory named for the PGlite version, once, and removes other versions', async () => {
    expect(made.made).toBe(true)
    expect(made.dir).toBe(await initdbTemplateDir(cacheDir))
    expect(existsSync(path.join(made.dir, 'PG_VERSION'))).toBe(true)
    expect(await readdir(cacheDir)).toEqual([path.basename(made.dir)])
    expect(await makeInitdbTemplate(cacheDir)).toEqual({ dir: made.dir, made: false })
  })

  it('a copy opens as a database and takes the migrations and the seed', async () => {
    const dataDir = path.join(scratch, 'from-template', 'db')
    expect(await copyInitdbTemplate(dataDir, cacheDir)).toBe(true)
    const db = await openDatabase({ dataDir })
    try {
      const result = await migrate(db, { seed: true, afterBootstrap: ensureAuthSchema })
      expect(result.seeded).toBe(true)
      const files = (await readdir(path.join(supabaseDir, 'migrations'))).filter((f) => f.endsWith('.sql'))
      expect(result.applied).toHaveLength(files.length)
      expect(result.batched).toBe(true)
      const users = await db.query<{ n: number }>(
        "select count(*)::int as n from auth.users where email = 'admin@growletter.test'",
      )
      expect(users.rows[0]?.n).toBe(1)
    } finally {
      await db.close()
    }
  }, 120_000)
})

describe('migrate', () => {
  let db: Db
  let dir: string
  beforeAll(async () => {
    db = await openDatabase({ loadDataDir: await initdbSnapshot() })
    dir = path.join(scratch, 'migrations')
    await mkdir(dir)
  }, 60_000)
  afterAll(async () => {
    await db?.close()
  })

  const write = (name: string, sql: string) => writeFile(path.join(dir, name), sql)
  const recorded = async () =>
    (
      await db.query<{ version: string; name: string; statements: string[] }>(
        'select version, name, statements from supabase_migrations.schema_migrations order by version',
      )
    ).rows

  it('applies pending migrations in order and records each one as written', async () => {
    await write('20990101000001_first.sql', 'create table public.m_first (id int primary key);')
    // No final semicolon and a trailing line comment without a newline: still its own statement.
    await write('20990101000002_second.sql', 'insert into public.m_first values (1), (2) -- two rows')
    await write(
      '20990101000003_third.sql',
      "create view public.m_count as select count(*)::int as n from public.m_first;\n-- it's done\n",
    )
    const result = await migrate(db, { seed: false, migrationsDir: dir })
    expect(result.applied).toEqual([
      '20990101000001_first.sql',
      '20990101000002_second.sql',
      '20990101000003_third.sql',
    ])
    expect(result.batched).toBe(true)
    expect((await db.query<{ n: number }>('select n from public.m_count')).rows[0]?.n).toBe(2)
    expect(await recorded()).toEqual([
      { version: '20990101000001', name: 'first', statements: ['create table public.m_first (id int primary key);'] },
      {
        version: '20990101000002',
        name: 'second',
        statements: ['insert into public.m_first values (1), (2) -- two rows'],
      },
      {
        version: '20990101000003',
        name: 'third',
        statements: ["create view public.m_count as select count(*)::int as n from public.m_first;\n-- it's done\n"],
      },
    ])
    expect((await migrate(db, { seed: false, migrationsDir: dir })).applied).toEqual([])
  })

  it('a failing migration fails alone and by name; the ones before it stay applied, the ones after it wait', async () => {
    await write('20990101000004_fourth.sql', 'create table public.m_fourth (id int);')
    await write(
      '20990101000005_broken.sql',
      'create table public.m_broken (id int);\nselect * from public.no_such_table;',
    )
    await write('20990101000006_sixth.sql', 'create table public.m_sixth (id int);')
    await expect(migrate(db, { seed: false, migrationsDir: dir })).rejects.toThrow(
      /^Migration 20990101000005_broken\.sql failed: .*no_such_table/,
    )
    expect((await recorded()).map((r) => r.version)).toEqual([
      '20990101000001',
      '20990101000002',
      '20990101000003',
      '20990101000004',
    ])
    const tables = await db.query<{ name: string }>(
      "select tablename as name from pg_tables where schemaname = 'public' and tablename like 'm\\_%' order by 1",
    )
    expect(tables.rows.map((r) => r.name)).toEqual(['m_first', 'm_fourth'])
  })

  it('refuses a database built from a history since rewritten, and says how to rebuild it', async () => {
    // A recorded version whose file now has another name, as the squash into the baseline left local databases.
    await rename(path.join(dir, '20990101000001_first.sql'), path.join(dir, '20990101000001_renamed.sql'))
    await expect(migrate(db, { seed: false, migrationsDir: dir })).rejects.toThrow(
      /built from older migrations \(it recorded 20990101000001_first\.sql, the file is now 20990101000001_renamed\.sql\)\. Rebuild it from the current ones with `npm run db:reset`/,
    )
    expect((await recorded()).map((r) => r.version)).toEqual([
      '20990101000001',
      '20990101000002',
      '20990101000003',
      '20990101000004',
    ])
  })
})

describe('ensureAuthSchema', () => {
  it('marks the database and skips the SQL while it is unchanged, and runs it again when the mark differs', async () => {
    const db = await openDatabase({ loadDataDir: await initdbSnapshot() })
    try {
      await migrate(db, {
        seed: false,
        migrationsDir: path.join(scratch, 'no-migrations'),
        afterBootstrap: ensureAuthSchema,
      })
      const mark = async () =>
        (await db.query<{ mark: string }>("select obj_description('auth.otp_failures'::regclass, 'pg_class') as mark"))
          .rows[0]?.mark
      expect(await mark()).toBe(AUTH_SCHEMA_MARK)
      // Unchanged: nothing runs, so a table dropped behind its back is not made again.
      await db.exec('drop table auth.one_time_tokens')
      await ensureAuthSchema(db)
      expect((await db.query("select to_regclass('auth.one_time_tokens') as t")).rows[0]).toEqual({ t: null })
      // Another version of the SQL (a different mark) runs it again.
      await db.exec("comment on table auth.otp_failures is 'growletter auth schema older'")
      await ensureAuthSchema(db)
      expect((await db.query("select to_regclass('auth.one_time_tokens')::text as t")).rows[0]).toEqual({
        t: 'auth.one_time_tokens',
      })
      expect(await mark()).toBe(AUTH_SCHEMA_MARK)
    } finally {
      await db.close()
    }
  }, 60_000)
})

describe('ensureAuthSchema on a database made before the auth schema followed GoTrue', () => {
  it("brings it to GoTrue's definitions, keeping users, identities and factors; sessions start empty", async () => {
    const db = await openDatabase({ loadDataDir: await initdbSnapshot() })
    try {
      // The platform bootstrap, then the auth tables as the earlier embedded-backend made them, with a user in them.
      await migrate(db, { seed: false, migrationsDir: path.join(scratch, 'no-migrations') })
      await db.exec(
        await readFile(path.join(import.meta.dirname, '../testing/fixtures/auth-schema-before-gotrue.sql'), 'utf8'),
      )
      const id = '00000000-0000-4000-a000-0000000000aa'
      await db.exec(`
        insert into auth.users (id, email) values ('${id}', 'old@example.test');
        insert into auth.identities (provider_id, user_id, identity_data, provider)
          values ('${id}', '${id}', '{"sub":"${id}","email":"old@example.test"}', 'email');
        insert into auth.mfa_factors (id, user_id, factor_type, status, secret)
          values ('00000000-0000-4000-b000-0000000000aa', '${id}', 'totp', 'verified', 'JBSWY3DPEHPK3PXP');
        insert into auth.sessions (id, user_id) values ('00000000-0000-4000-c000-0000000000aa', '${id}');`)
      await ensureAuthSchema(db)
      const one = async (sql: string) => (await db.query(sql)).rows[0]
      expect(await one('select count(*)::int as n from auth.users')).toEqual({ n: 1 })
      expect(await one('select count(*)::int as n from auth.identities')).toEqual({ n: 1 })
      expect(await one('select count(*)::int as n from auth.sessions')).toEqual({ n: 0 })
      expect(
        await one(
          'select friendly_name, factor_type::text, status::text, created_at is not null as dated from auth.mfa_factors',
        ),
      ).toEqual({ friendly_name: '', factor_type: 'totp', status: 'verified', dated: true })
      expect(
        await one(`select column_default from information_schema.columns
          where table_schema = 'auth' and table_name = 'users' and column_name = 'confirmation_token'`),
      ).toEqual({ column_default: null })
      expect((await db.query("select to_regclass('auth.mfa_factors_before_gotrue') as t")).rows[0]).toEqual({ t: null })
      expect(
        (await db.query("select obj_description('auth.otp_failures'::regclass, 'pg_class') as mark")).rows[0]?.mark,
      ).toBe(AUTH_SCHEMA_MARK)
    } finally {
      await db.close()
    }
  }, 60_000)
})

describe('describeStartup', () => {
  it('names where a new database came from and its slower steps', () => {
    expect(
      describeStartup({
        origin: 'initdb-template',
        phases: { prepare: 12, open: 850, migrations: 700, seed: 600, database: 2200 },
      }),
    ).toBe("new database from npm install's initdb template: open 850 ms, migrations 700 ms, seed 600 ms")
    expect(describeStartup({ origin: 'existing', phases: { open: 20 } })).toBe('existing database')
  })
})

describe('the migrated dumps npm install prepares', () => {
  it('a seeded database without its own dump starts from the unseeded one, runs only the seed, and dumps itself', async () => {
    const dumpsDir = path.join(scratch, 'dumps')
    // The unseeded dump of the current sources (the suites and npm install make it; made here if missing).
    let unseeded = await readSnapshot(await migratedSnapshotFile(false))
    if (!unseeded) {
      await (await openBackendDb({ seed: false, afterBootstrap: ensureAuthSchema })).db.close()
      unseeded = await readSnapshot(await migratedSnapshotFile(false))
    }
    await mkdir(dumpsDir, { recursive: true })
    await writeFile(await migratedSnapshotFile(false, dumpsDir), Buffer.from(await unseeded!.arrayBuffer()))

    const first = await openBackendDb({ seed: true, dumpsDir, afterBootstrap: ensureAuthSchema })
    const count = (db: Db) => db.query<{ n: number }>('select count(*)::int as n from public.campaigns')
    try {
      expect(first.origin).toBe('unseeded-dump')
      expect(first.migration).toMatchObject({ applied: [], seeded: true })
      expect((await count(first.db)).rows[0]!.n).toBeGreaterThan(0)
    } finally {
      await first.db.close()
    }
    expect(existsSync(await migratedSnapshotFile(true, dumpsDir))).toBe(true)
    // Both exist now: npm install's step makes nothing, and the next new database loads the seeded dump as it is.
    expect(await prepareMigratedDumps(ensureAuthSchema, dumpsDir)).toEqual([])
    const second = await openBackendDb({ seed: true, dumpsDir, afterBootstrap: ensureAuthSchema })
    try {
      expect(second.origin).toBe('migrated-dump')
      expect((await count(second.db)).rows[0]!.n).toBeGreaterThan(0)
    } finally {
      await second.db.close()
    }
  })
})
