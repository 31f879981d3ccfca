/**
 * The one database handle of the embedded backend: PGlite in-process by default (persisted in a folder),
 * or a real PostgreSQL server when DATABASE_URL is set. Everything above this file (gateway, auth, REST,
 * migrations, tests) talks to Postgres only through `Db`, so both engines behave the same to them.
 */
import { PGlite } from '@electric-sql/pglite'
import { citext } from '@electric-sql/pglite/contrib/citext'
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import pg from 'pg'

export type Field = { name: string; dataTypeID: number }
export type QueryResult<T> = { rows: T[]; fields: Field[]; affectedRows: number }

/** A connection inside one transaction (or the whole database outside one). */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>
  /** Several statements, no parameters, one round trip. */
  exec(sql: string): Promise<void>
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres'
  /** `prelude` (simple-query SQL) runs first; on PostgreSQL it travels with `begin` in one round trip. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, prelude?: string): Promise<T>
  close(): Promise<void>
  /** PGlite only: a gzip tarball of the data directory (see snapshot.ts). */
  dumpDataDir?(): Promise<Blob>
}

export type OpenOptions = {
  dataDir?: string
  databaseUrl?: string
  /** A PGlite data directory dump (see snapshot.ts) to start a new database from instead of running initdb. */
  loadDataDir?: Blob
}

export async function openDatabase({ dataDir, databaseUrl, loadDataDir }: OpenOptions): Promise<Db> {
  return databaseUrl ? openPostgres(databaseUrl) : openPglite(dataDir, loadDataDir)
}

/** The extensions every PGlite instance loads; a snapshot must be made with the same set. */
export const pgliteExtensions = { citext, pgcrypto, pg_trgm }

async function openPglite(dataDir?: string, loadDataDir?: Blob): Promise<Db> {
  const lite = await PGlite.create(dataDir ? `file://${dataDir}` : undefined, { extensions: pgliteExtensions, loadDataDir })
  const wrap = (q: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    async query<T>(sql: string, params?: unknown[]) {
      const r = await q.query<T>(sql, params as never[])
      return { rows: r.rows, fields: r.fields, affectedRows: r.affectedRows ?? 0 }
    },
    async exec(sql: string) {
      await q.exec(sql)
    },
  })
  return {
    kind: 'pglite',
    ...wrap(lite),
    transaction: (fn, prelude) =>
      lite.transaction(async (tx) => {
        if (prelude) await tx.exec(prelude)
        return fn(wrap(tx))
      }),
    close: () => lite.close(),
    dumpDataDir: () => lite.dumpDataDir('gzip'),
  }
}

async function openPostgres(databaseUrl: string): Promise<Db> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 16 })
  // A broken idle connection must never take the process down with it.
  pool.on('error', () => {})
  const wrap = (c: pg.Pool | pg.PoolClient): Queryable => ({
    async query<T>(sql: string, params?: unknown[]) {
      const r = await c.query(sql, params)
      return { rows: r.rows as T[], fields: r.fields, affectedRows: r.rowCount ?? 0 }
    },
    async exec(sql: string) {
      await c.query(sql)
    },
  })
  return {
    kind: 'postgres',
    ...wrap(pool),
    async transaction(fn, prelude) {
      const client = await pool.connect()
      try {
        await client.query(prelude ? `begin;${prelude}` : 'begin')
        const result = await fn(wrap(client))
        await client.query('commit')
        return result
      } catch (error) {
        await client.query('rollback').catch(() => {})
        throw error
      } finally {
        client.release()
      }
    },
    close: () => pool.end(),
  }
}

/** A SQL string literal; used only for the per-request prelude, which must be one simple query. */
export function literal(value: string): string {
  return `'${value.replace(/'/g, "''")}'`
}

export type RequestContext = {
  role: 'anon' | 'authenticated' | 'service_role'
  claims: Record<string, unknown>
  headers: Record<string, string>
  /** GET and HEAD run read-only, as PostgREST runs them: a function that writes fails with 25006. */
  readOnly?: boolean
  /** The role's own `statement_timeout` (role-timeouts.ts); `set local role` does not apply it. */
  statementTimeout?: string
}

/**
 * Runs `fn` in one transaction as PostgREST does: `set local role` from the verified JWT, the claims and
 * the request headers as transaction-local settings. Row-level security then applies inside Postgres.
 */
export function withRequestContext<T>(db: Db, ctx: RequestContext, fn: (tx: Queryable) => Promise<T>) {
  const prelude =
    // Must come before any query of the transaction.
    (ctx.readOnly ? 'set transaction read only;' : '') +
    (ctx.statementTimeout ? `set local statement_timeout = ${literal(ctx.statementTimeout)};` : '') +
    `set local role ${ctx.role};` +
    `select set_config('request.jwt.claims', ${literal(JSON.stringify(ctx.claims))}, true),` +
    ` set_config('request.headers', ${literal(JSON.stringify(ctx.headers))}, true),` +
    ` set_config('request.jwt.claim.sub', ${literal(String(ctx.claims.sub ?? ''))}, true),` +
    ` set_config('request.jwt.claim.role', ${literal(ctx.role)}, true);`
  return db.transaction(fn, prelude)
}
