/**
 * Brings a database to the state hosted Supabase would have after `supabase db push`: the platform
 * bootstrap, then every `supabase/migrations/*.sql` not yet applied (recorded in
 * supabase_migrations.schema_migrations as the Supabase CLI does), then `seed.sql` on a new database.
 */
import { readFile, readdir } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { createHash } from 'node:crypto'
import { withLocalExtensions } from '../cron/extensions'
import { literal, type Db } from './database'

const here = path.dirname(fileURLToPath(import.meta.url))
export const supabaseDir = path.resolve(here, '../..')

export type MigrateResult = { applied: string[]; seeded: boolean }

export type MigrateOptions = {
  seed?: boolean
  /** Runs after the platform bootstrap and before the migrations (the auth API creates its tables here). */
  afterBootstrap?: (db: Db) => Promise<void>
}

export async function migrate(db: Db, { seed = true, afterBootstrap }: MigrateOptions = {}): Promise<MigrateResult> {
  const fresh = !(await hasMigrationTable(db))
  await bootstrap(db, fresh)
  await afterBootstrap?.(db)
  const done = new Set(
    (await db.query<{ version: string }>('select version from supabase_migrations.schema_migrations')).rows.map(
      (r) => r.version,
    ),
  )
  const dir = path.join(supabaseDir, 'migrations')
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => /^\d{14}_.+\.sql$/.test(f)).sort()
  const applied: string[] = []
  for (const file of files) {
    const version = file.slice(0, 14)
    if (done.has(version)) continue
    const sql = await readFile(path.join(dir, file), 'utf8')
    try {
      await db.transaction(async (tx) => {
        // pg_cron and pg_net are emulated locally (see cron/extensions.ts); the file is recorded as written.
        await tx.exec(withLocalExtensions(sql))
        await tx.query('insert into supabase_migrations.schema_migrations (version, name, statements) values ($1, $2, $3)', [
          version,
          file.slice(15, -4),
          [sql],
        ])
      })
    } catch (error) {
      throw new Error(`Migration ${file} failed: ${(error as Error).message}`, { cause: error })
    }
    applied.push(file)
  }
  let seeded = false
  if (fresh && seed) {
    const seedSql = await readFile(path.join(supabaseDir, 'seed.sql'), 'utf8').catch(() => '')
    if (seedSql.trim()) {
      await db.exec(seedSql)
      seeded = true
    }
  }
  return { applied, seeded }
}

/**
 * Runs bootstrap.sql unless this exact version already ran here (its hash is kept as the comment of the
 * supabase_migrations schema): it takes ~0.5 s on PGlite, half the budget of a start with an existing database.
 */
async function bootstrap(db: Db, fresh: boolean) {
  const sql = await readFile(path.join(here, 'bootstrap.sql'), 'utf8')
  const mark = `bootstrap ${createHash('sha256').update(sql).digest('hex').slice(0, 16)}`
  if (!fresh) {
    const r = await db.query<{ mark: string | null }>("select obj_description('supabase_migrations'::regnamespace, 'pg_namespace') as mark")
    if (r.rows[0]?.mark === mark) return
  }
  await db.exec(`${sql};\ncomment on schema supabase_migrations is ${literal(mark)};`)
}

async function hasMigrationTable(db: Db) {
  const r = await db.query<{ exists: boolean }>(
    "select to_regclass('supabase_migrations.schema_migrations') is not null as exists",
  )
  return r.rows[0]?.exists === true
}
