/**
 * Brings a database to the state hosted Supabase would have after `supabase db push`: the platform
 * bootstrap, then every `supabase/migrations/*.sql` not yet applied (recorded in
 * supabase_migrations.schema_migrations as the Supabase CLI does), then `seed.sql` on a new database.
 * Each step runs as the role hosted runs it as (platform.ts): the bootstrap as supabase_admin, the auth tables as
 * supabase_auth_admin, the migrations and the seed as postgres — where the server has those roles; on PGlite (one
 * superuser) everything runs on the one connection.
 */
import { readFile, readdir } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { createHash } from 'node:crypto'
import { withLocalExtensions } from '../cron/extensions'
import { literal, type Db } from './database'
import { platformOf, type Platform } from './platform'

const here = path.dirname(fileURLToPath(import.meta.url))
/** The folder the Supabase CLI deploys (migrations, seed, functions, config.toml), beside this package. */
export const supabaseDir = path.resolve(here, '../../supabase')
/** This package: the embedded backend, which is never deployed. */
export const backendDir = path.resolve(here, '..')

export type MigrateResult = {
  applied: string[]
  seeded: boolean
  /** The pending migrations went in one transaction (false: one by one, or fewer than two). */
  batched?: boolean
  /** Milliseconds per step (bootstrap, auth, migrations, seed), for the start-up report. */
  phases?: Record<string, number>
}

export type MigrateOptions = {
  seed?: boolean
  /**
   * Runs after the platform bootstrap and before the migrations: the auth API creates its tables here, as
   * supabase_auth_admin where the server has the platform's roles.
   */
  afterBootstrap?: (db: Db) => Promise<void>
  /** Runs just before the migrations, as the role that applies them (postgres). */
  beforeMigrations?: (db: Db) => Promise<void>
  /** Defaults to supabase/migrations (tests point it elsewhere). */
  migrationsDir?: string
  /**
   * More platform SQL, run as supabase_admin after the bootstrap (the hosted lane installs real pg_cron here).
   * Only where the server has the platform's roles.
   */
  platformSql?: string
  /** How a migration's SQL is turned into what runs here (default: the local pg_cron / pg_net, extensions.ts). */
  extensions?: (sql: string) => string
}

export async function migrate(
  db: Db,
  {
    seed = true,
    afterBootstrap,
    beforeMigrations,
    migrationsDir,
    platformSql = '',
    extensions = withLocalExtensions,
  }: MigrateOptions = {},
): Promise<MigrateResult> {
  const phases: Record<string, number> = {}
  let last = performance.now()
  const lap = (name: string) => {
    const now = performance.now()
    phases[name] = Math.round(now - last)
    last = now
  }
  const fresh = !(await hasMigrationTable(db))
  const platform = await platformOf(db)
  await bootstrap(db, platform, fresh, platformSql)
  lap('bootstrap')
  if (afterBootstrap) await platform.as('supabase_auth_admin', afterBootstrap)
  lap('auth')
  await beforeMigrations?.(db)
  const recorded = (
    await db.query<{ version: string; name: string | null }>(
      'select version, name from supabase_migrations.schema_migrations',
    )
  ).rows
  const done = new Set(recorded.map((r) => r.version))
  const dir = migrationsDir ?? path.join(supabaseDir, 'migrations')
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => /^\d{14}_.+\.sql$/.test(f)).sort()
  refuseRewrittenHistory(recorded, files)
  const pending: Migration[] = []
  for (const file of files) {
    if (!done.has(file.slice(0, 14))) pending.push({ file, sql: await readFile(path.join(dir, file), 'utf8') })
  }
  // Pending migrations (on a new database, all of them) go in one transaction and one exec (~15% less than a
  // transaction per file). If that fails, nothing of it stays, and they run again one by one, each in its own transaction as
  // the Supabase CLI applies them: the ones before the failing file stay applied and the error names it.
  const batched =
    pending.length > 1 &&
    (await applyAll(db, pending, extensions).then(
      () => true,
      () => false,
    ))
  if (!batched) for (const migration of pending) await applyOne(db, migration, extensions)
  const applied = pending.map((m) => m.file)
  lap('migrations')
  let seeded = false
  if (fresh && seed) {
    seeded = await seedDatabase(db)
    lap('seed')
  }
  return { applied, seeded, batched, phases }
}

/** Runs `seed.sql` (when there is one): on a new database, after its migrations. True when it ran. */
export async function seedDatabase(db: Db): Promise<boolean> {
  const seedSql = await readFile(path.join(supabaseDir, 'seed.sql'), 'utf8').catch(() => '')
  if (!seedSql.trim()) return false
  await db.exec(seedSql)
  return true
}

type Migration = { file: string; sql: string }

/**
 * A version recorded under another name than its file's means the history was rewritten (the squash into the
 * baseline of docs/decisions.md reused the versions 20260101000100–20260101001300): applying the rest on top
 * would build something no migration describes, so the database must be rebuilt.
 */
function refuseRewrittenHistory(recorded: { version: string; name: string | null }[], files: string[]) {
  const names = new Map(files.map((f) => [f.slice(0, 14), f.slice(15, -4)]))
  const changed = recorded.find((r) => names.has(r.version) && r.name !== null && names.get(r.version) !== r.name)
  if (changed) {
    throw new Error(
      `This database was built from older migrations (it recorded ${changed.version}_${changed.name}.sql, the file is now ` +
        `${changed.version}_${names.get(changed.version)}.sql). Rebuild it from the current ones with \`npm run db:reset\`.`,
    )
  }
}

type Extensions = (sql: string) => string

/** Recorded as the Supabase CLI records it: version, name and the file as written. */
const RECORD = 'insert into supabase_migrations.schema_migrations (version, name, statements) values ($1, $2, $3)'
const recordParams = (m: Migration) => [m.file.slice(0, 14), m.file.slice(15, -4), [m.sql]]

async function applyOne(db: Db, migration: Migration, extensions: Extensions) {
  try {
    await db.transaction(async (tx) => {
      await tx.exec(extensions(migration.sql))
      await tx.query(RECORD, recordParams(migration))
    })
  } catch (error) {
    throw new Error(`Migration ${migration.file} failed: ${(error as Error).message}`, { cause: error })
  }
}

/** Every migration and its record, in order, as one exec in one transaction. */
export function batchSql(migrations: Migration[], extensions: Extensions = withLocalExtensions): string {
  return migrations
    .map((m) => {
      const [version, name, statements] = recordParams(m) as [string, string, string[]]
      const record = `insert into supabase_migrations.schema_migrations (version, name, statements) values (${literal(version)}, ${literal(name)}, array[${literal(statements[0]!)}]);`
      // The newline ends a trailing line comment, the semicolon a last statement written without one.
      return `${extensions(m.sql)}\n;\n${record}`
    })
    .join('\n')
}

async function applyAll(db: Db, migrations: Migration[], extensions: Extensions) {
  await db.transaction((tx) => tx.exec(batchSql(migrations, extensions)))
}

/**
 * Runs bootstrap.sql (and, where postgres is not a superuser, hosted-platform.sql and `platformSql`) as the
 * platform, unless this exact version already ran here (its hash is kept as the comment of the
 * supabase_migrations schema): it takes ~0.5 s on PGlite, half the budget of a start with an existing database.
 */
async function bootstrap(db: Db, platform: Platform, fresh: boolean, platformSql: string) {
  const parts = [await readFile(path.join(here, 'bootstrap.sql'), 'utf8')]
  if (platform.hosted) parts.push(await readFile(path.join(here, 'hosted-platform.sql'), 'utf8'), platformSql)
  const sql = parts.join(';\n')
  const mark = `bootstrap ${createHash('sha256').update(sql).digest('hex').slice(0, 16)}`
  if (!fresh) {
    const r = await db.query<{ mark: string | null }>(
      "select obj_description('supabase_migrations'::regnamespace, 'pg_namespace') as mark",
    )
    if (r.rows[0]?.mark === mark) return
  }
  await platform.as('supabase_admin', (admin) =>
    admin.exec(`${sql};\ncomment on schema supabase_migrations is ${literal(mark)};`),
  )
}

async function hasMigrationTable(db: Db) {
  const r = await db.query<{ exists: boolean }>(
    "select to_regclass('supabase_migrations.schema_migrations') is not null as exists",
  )
  return r.rows[0]?.exists === true
}
