/**
 * `create extension [if not exists] pg_cron | pg_net` in a migration, run locally.
 *
 * Hosted Supabase installs the real extensions from that statement. Neither can load into PGlite (they are
 * C extensions with background workers) nor into a stock PostgreSQL server without files in its system
 * directories, so the migration runner replaces the statement by the SQL of the local emulation
 * (pg-cron.sql, pg-net.sql): the same schemas, tables and functions, with the backend process playing the
 * extensions' background workers (scheduler.ts, net-worker.ts). The migration file itself stays unchanged,
 * so `supabase db push` runs exactly what the local database ran. Nothing else about `create extension` is
 * touched: pgcrypto and citext are real extensions on both engines.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))

/** The emulated extensions and the SQL that installs each. */
export const LOCAL_EXTENSIONS = {
  pg_cron: path.join(here, 'pg-cron.sql'),
  pg_net: path.join(here, 'pg-net.sql'),
} as const

/** What wakes the backend's worker for each (a NOTIFY trigger), installed with it and on older databases at start. */
export const WAKE_SQL = {
  pg_cron: path.join(here, 'pg-cron-wake.sql'),
  pg_net: path.join(here, 'pg-net-wake.sql'),
} as const

// `create extension`, optional `if not exists`, the name (optionally quoted), any `with schema …`/`version …`
// clause, up to the statement's semicolon. Only these two names match.
const CREATE_EXTENSION = /\bcreate\s+extension\s+(?:if\s+not\s+exists\s+)?"?(pg_cron|pg_net)"?\b[^;]*;/gi

const cache = new Map<string, string>()
function cached(file: string): string {
  let sql = cache.get(file)
  if (sql === undefined) {
    sql = readFileSync(file, 'utf8')
    cache.set(file, sql)
  }
  return sql
}
const installSql = (name: keyof typeof LOCAL_EXTENSIONS) =>
  `${cached(LOCAL_EXTENSIONS[name])}\n${cached(WAKE_SQL[name])}`

/** The SQL that installs the wake-up trigger of one emulated extension (idempotent). */
export const wakeSql = (name: keyof typeof WAKE_SQL) => cached(WAKE_SQL[name])

/** The migration's SQL with each pg_cron/pg_net `create extension` replaced by the local install script. */
export function withLocalExtensions(sql: string): string {
  return sql.replace(CREATE_EXTENSION, (statement, name: string) => {
    const key = name.toLowerCase() as keyof typeof LOCAL_EXTENSIONS
    return `-- embedded-backend: ${statement.replace(/\s+/g, ' ')}\n${installSql(key)}\n`
  })
}
