/**
 * Who prepares a database, as on hosted Supabase: the platform's superuser `supabase_admin` runs the platform SQL
 * (bootstrap.sql, then hosted-platform.sql), the auth server's role `supabase_auth_admin` creates the auth tables,
 * and the project's role `postgres` — not a superuser — applies the migrations and the seed (migrate.ts).
 *
 * That holds where the database's `postgres` is not a superuser (a server made by scripts/local-postgres.ts): each
 * platform role gets a connection of its own, to the same server and database as the given one, with its own user
 * name (local servers trust local connections). PGlite has a single superuser, and a server whose DATABASE_URL user
 * is a superuser (one a developer runs) is used as it is: there every step runs on the one connection, as before.
 */
import pg from 'pg'
import type { Db, Queryable, Statement } from './database'

export type PlatformRole = 'supabase_admin' | 'supabase_auth_admin'

export type Platform = {
  /** The database is prepared as hosted prepares it: `postgres` is not a superuser, each step has its role. */
  readonly hosted: boolean
  /** Runs `fn` on a connection as `role` (hosted), or on the database's own connection. */
  as<T>(role: PlatformRole, fn: (db: Db) => Promise<T>): Promise<T>
}

export async function platformOf(db: Db): Promise<Platform> {
  const url = db.url
  const same: Platform = { hosted: false, as: (_role, fn) => fn(db) }
  if (db.kind === 'pglite' || !url) return same
  const r = await db.query<{ superuser: boolean }>(
    'select rolsuper as superuser from pg_roles where rolname = current_user',
  )
  if (r.rows[0]?.superuser !== false) return same
  return { hosted: true, as: (role, fn) => withRoleConnection(roleUrl(url, role), fn) }
}

/** The same server and database as `url`, as `role`. */
export function roleUrl(url: string, role: string): string {
  const u = new URL(url)
  u.username = role
  u.password = ''
  return u.toString()
}

/** Runs `fn` on one connection to `url`, closed afterwards. */
export async function withRoleConnection<T>(url: string, fn: (db: Db) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await fn(clientDb(client, url))
  } finally {
    await client.end().catch(() => {})
  }
}

/** One connection as a `Db`: statements in order, a transaction as begin … commit on it. */
export function clientDb(client: pg.ClientBase, url?: string): Db {
  const q: Queryable = {
    async query<T>(sql: string, params?: unknown[]) {
      const r = await client.query(sql, params)
      return { rows: r.rows as T[], fields: r.fields, affectedRows: r.rowCount ?? 0 }
    },
    async exec(sql: string) {
      await client.query(sql)
    },
  }
  return {
    kind: 'postgres',
    url,
    ...q,
    async transaction<T>(fn: (tx: Queryable) => Promise<T>, prelude?: string | Statement) {
      await client.query('begin')
      try {
        if (typeof prelude === 'string') await client.query(prelude)
        else if (prelude) await client.query(prelude.sql, prelude.params)
        const result = await fn(q)
        await client.query('commit')
        return result
      } catch (error) {
        await client.query('rollback').catch(() => {})
        throw error
      }
    },
    close: async () => {},
  }
}
