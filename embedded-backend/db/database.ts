/**
 * The one database handle of the embedded backend: PGlite in-process by default (persisted in a folder),
 * or a real PostgreSQL server when DATABASE_URL is set. Everything above this file (gateway, auth, REST,
 * migrations, tests) talks to Postgres only through `Db`, so both engines behave the same to them.
 */
import { PGlite, type Extension } from '@electric-sql/pglite'
import { citext } from '@electric-sql/pglite/contrib/citext'
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import os from 'node:os'
import pg from 'pg'
import { dumpImageOf, DumpImageFS, DumpOnCloseFS } from './dump-image'
import { listenWithReconnect } from './listener'
import { Lanes, runBatch, type BatchStatement } from './pipeline'

export type Field = { name: string; dataTypeID: number }
export type QueryResult<T> = { rows: T[]; fields: Field[]; affectedRows: number }

/** A connection inside one transaction (or the whole database outside one). */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult<T>>
  /** Several statements, no parameters, one round trip. */
  exec(sql: string): Promise<void>
}

export type QueryOptions = {
  /**
   * PostgreSQL: keep the statement prepared on the connection (parsed and planned once, then only bound).
   * For statements whose result columns never change shape (the REST API's), sent many times.
   */
  prepare?: boolean
}

/** A statement with bound parameters. */
export type Statement = { sql: string; params?: unknown[] }

export type TransactionOptions = {
  /**
   * The transaction is exactly one statement (after the prelude): on PostgreSQL `begin`, the prelude, the
   * statement and `commit` travel in one round trip. The statement's failure still rolls everything back;
   * a second statement is refused (the first one has committed).
   */
  oneStatement?: boolean
  /**
   * The transaction cannot write (`transaction_read_only` on): it takes no row locks and waits on none, so a
   * one-statement read may share a pipelined connection with others. Anything that may write runs on a
   * connection of its own, so a statement waiting on another's row lock holds up nobody else (issue 28).
   */
  readOnly?: boolean
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres'
  /** PostgreSQL: the connection URL (platform.ts derives the platform roles' connections from it). */
  readonly url?: string
  /**
   * Runs `fn` in one transaction. `prelude` runs first; on PostgreSQL it is pipelined with `begin` and
   * the first statement, so a request transaction costs one round trip plus its commit (or just one, with
   * `oneStatement`).
   */
  transaction<T>(
    fn: (tx: Queryable) => Promise<T>,
    prelude?: string | Statement,
    options?: TransactionOptions,
  ): Promise<T>
  close(): Promise<void>
  /**
   * `LISTEN channel`: `onNotify` gets each notification's payload (PostgREST's `notify pgrst, 'reload schema'`).
   * Resolves once listening, with the function that stops it. Absent on a one-connection Db (platform.ts). On
   * PostgreSQL a dropped connection is re-opened, and the reconnection is reported as an empty payload.
   */
  listen?(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>
  /** PGlite only: a tarball of the data directory (see snapshot.ts). */
  dumpDataDir?(): Promise<Blob>
}

export type OpenOptions = {
  dataDir?: string
  databaseUrl?: string
  /** A PGlite data directory dump (see snapshot.ts) to start a new database from instead of running initdb. */
  loadDataDir?: Blob
  /** PostgreSQL: the most pooled connections this process opens (default DB_POOL_MAX, else `defaultPoolSize()`). */
  poolSize?: number
}

/**
 * The pool size: PostgREST's default of 10, or twice the cores plus one where that is more. A request holds its
 * connection until the event loop reads the answer, and on a small machine that loop shares the cores with
 * PostgreSQL, so a pool must cover requests per second × (query time + event-loop delay) without letting
 * PostgreSQL's processes outnumber the cores many times over. Measured on 2 cores (docs/measurements.md "REST
 * and clicks through the backend"): with 16, clicks over HTTP at concurrency 16 had a p99 of 66–67 ms (16 PostgreSQL
 * processes, the backend and the client taking turns); with 5, 16–23 ms, but at concurrency 64 the pool itself was
 * the queue (560–580 clicks/s against 1,400–1,600); with 8–10, p99 21–45 ms and 1,400–1,700 clicks/s at 64.
 * Requests beyond the pool wait in the pool's queue, in order, instead of in the kernel's.
 */
export const defaultPoolSize = () => Math.max(10, 2 * os.availableParallelism() + 1)

export async function openDatabase({ dataDir, databaseUrl, loadDataDir, poolSize }: OpenOptions): Promise<Db> {
  return databaseUrl ? openPostgres(databaseUrl, poolSize) : openPglite(dataDir, loadDataDir)
}

/**
 * Loads an extension's library when postgres first needs it (`dlopen`, on its first C function call), not at every
 * start. PGlite unpacks an extension's bundle into the filesystem and links its `.so` into each new instance as it
 * starts (emscripten's wasm preload plugin), whether or not a query ever calls it: pgcrypto's is 3.2 MB of wasm,
 * instantiated and relocated into the instance's memory and table. With `noWasmDecoding` (an emscripten Module
 * option) the file is only written, and emscripten's `dlopen` links it on first use, as it does for PGlite's own
 * libraries (plpgsql.so). The compiled code is V8's to share either way (it caches a module by its bytes per
 * process). Measured in one process, opens alternating (10 a side, the migrated dump, loaded machine): 0.81 → 0.62
 * CPU-seconds an open that calls none of them, 0.79 → 0.74 one that calls pgcrypto; a test backend's start and close
 * 1.10–1.15 → 0.88–0.97 (8 a side, A/B/A/B).
 */
function linkedOnFirstUse<E extends Extension>(extension: E): E {
  return {
    ...extension,
    setup: async (pg, emscriptenOpts, clientOnly) => {
      const setup = await extension.setup(pg, emscriptenOpts, clientOnly)
      return { ...setup, emscriptenOpts: { ...(setup.emscriptenOpts ?? emscriptenOpts), noWasmDecoding: true } }
    },
  }
}

/** The extensions every PGlite instance loads; a snapshot must be made with the same set. */
export const pgliteExtensions = {
  citext: linkedOnFirstUse(citext),
  pgcrypto: linkedOnFirstUse(pgcrypto),
  pg_trgm: linkedOnFirstUse(pg_trgm),
}

const SECOND_STATEMENT = 'A one-statement transaction ran a second statement; its first one has already committed'

/** Refuses a second statement in a one-statement transaction (see TransactionOptions), on either engine. */
function oneStatementGuard(tx: Queryable): Queryable {
  let used = false
  const claim = () => {
    if (used) throw new Error(SECOND_STATEMENT)
    used = true
  }
  return {
    query: (sql, params, options) => {
      claim()
      return tx.query(sql, params, options)
    },
    exec: (sql) => {
      claim()
      return tx.exec(sql)
    },
  }
}

/**
 * An in-memory database's shared buffers. Postgres zero-fills its shared memory as it starts (emscripten's anonymous
 * mmap is a memset), touching every page of it: with initdb's 128 MB a third of an in-memory start (≈0.2
 * CPU-seconds), with 48 MB still ≈52 ms of CPU a start, with 16 MB ≈30 ms (profiles of 20 test-backend starts).
 * 16 MB are 2,048 pages: the heaviest backend test files (rest-properties, the payouts, the GoTrue parity) read at
 * most 805 pages and evicted none (pg_stat_io); the db project's one shared database, all 59 files on it, evicted
 * 177 pages, which in memory costs a copy each. A file database (npm run dev) keeps initdb's setting.
 */
const IN_MEMORY_SHARED_BUFFERS = '16MB'

const inMemoryStartParams = () => [...PGlite.defaultStartParams, '-c', `shared_buffers=${IN_MEMORY_SHARED_BUFFERS}`]

async function openPglite(dataDir?: string, loadDataDir?: Blob): Promise<Db> {
  // In memory from a dump: the dump's files copied straight into the new filesystem (dump-image.ts), unless the
  // dump is of a shape that reader does not know, which PGlite then loads itself.
  const image = !dataDir && loadDataDir ? await dumpImageOf(loadDataDir) : null
  const lite = await PGlite.create(dataDir ? `file://${dataDir}` : undefined, {
    extensions: pgliteExtensions,
    ...(image ? { fs: new DumpImageFS(image) } : { loadDataDir }),
    ...(dataDir ? {} : { startParams: inMemoryStartParams() }),
  })
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
    // In process there is no round trip to save: the transaction runs as written, one statement or many.
    transaction: (fn, prelude, options) =>
      lite.transaction(async (tx) => {
        if (typeof prelude === 'string') await tx.exec(prelude)
        else if (prelude) await tx.query(prelude.sql, prelude.params as never[])
        const inner = wrap(tx)
        return fn(options?.oneStatement ? oneStatementGuard(inner) : inner)
      }),
    close: () => lite.close(),
    listen: (channel, onNotify) => lite.listen(channel, onNotify),
    dumpDataDir: () => dumpShutDown(lite),
  }
}

/**
 * The data directory as a plain tarball, as a cleanly shut-down server leaves it. PGlite dumps the files of a running
 * server, which every database started from the dump then treats as a crash: it replays the WAL since the last
 * checkpoint (after the migrations, all of theirs without the checkpoint: ≈0.1 CPU-seconds and a 16 MB WAL segment
 * zero-filled each start), scans every database folder for unlogged relations, and writes an end-of-recovery
 * checkpoint. So the running server's dump (after a checkpoint, to keep the next step short) is started once more
 * in memory and shut down, and that is the dump: a database started from it does no recovery. Measured (14 opens
 * a side alternating in one process, the seeded migrated dump, open + one query + close): 0.392 → 0.351
 * CPU-seconds. Making a dump costs that one open and close more (db-startup.test.ts and dump-image.test.ts make one
 * each a run). A dump this process cannot read itself (dump-image.ts) is returned as PGlite took it.
 */
export async function dumpShutDown(lite: PGlite): Promise<Blob> {
  await lite.exec('checkpoint')
  const running = await lite.dumpDataDir('none')
  const image = await dumpImageOf(running)
  if (!image) return running
  const fs = new DumpOnCloseFS(image)
  const copy = await PGlite.create({ extensions: pgliteExtensions, fs, startParams: inMemoryStartParams() })
  await copy.close()
  if (!fs.shutDownDump) throw new Error('PGlite closed without handing its data directory to closeFs')
  return fs.shutDownDump
}

const toResult = <T>(r: pg.QueryResult | pg.QueryResult[]): QueryResult<T> => {
  // A simple query of several statements answers with one result each; the last one is the answer.
  const last = Array.isArray(r) ? r[r.length - 1] : r
  return { rows: (last?.rows ?? []) as T[], fields: last?.fields ?? [], affectedRows: last?.rowCount ?? 0 }
}

/** A PostgreSQL database's connections: the pool, and the pipelined lanes one-statement reads use. */
type PgConnections = { pool: pg.Pool; lanes: Lanes }

const wrapPg = (c: pg.Pool | pg.PoolClient): Queryable => ({
  async query<T>(sql: string, params?: unknown[]) {
    return toResult<T>(await c.query(sql, params))
  },
  async exec(sql: string) {
    await c.query(sql)
  },
})

/**
 * One round trip for the prelude and the first statement (see pipeline.ts). A one-statement transaction
 * is then complete: without `begin`, the batch is one implicit transaction that commits at its Sync.
 * Otherwise an explicit `begin` leads the batch, and later statements and the commit follow.
 */
async function pooledBatch(pool: pg.Pool, batch: BatchStatement[]) {
  const client = await pool.connect()
  try {
    return await runBatch(client, batch)
  } finally {
    client.release(client.getTransactionStatus() !== 'I' ? true : undefined)
  }
}

/**
 * A one-statement transaction: the prelude and the statement as one batch, on a pipelined connection when
 * it only reads, else on a pooled connection of its own (a write may wait on a row lock, and PostgreSQL runs a
 * connection's batches in order: every batch queued behind it would wait too).
 */
function laneTransaction<T>(
  conns: PgConnections,
  fn: (tx: Queryable) => Promise<T>,
  prelude: Statement | undefined,
  readOnly: boolean,
): Promise<T> {
  return fn(new LaneTransaction(conns, prelude, readOnly))
}

/** The handle of a one-statement transaction (see laneTransaction); its one statement carries the prelude. */
class LaneTransaction implements Queryable {
  private used = false
  constructor(
    private readonly conns: PgConnections,
    private readonly prelude: Statement | undefined,
    private readonly readOnly: boolean,
  ) {}

  private claim() {
    if (this.used) throw new Error(SECOND_STATEMENT)
    this.used = true
  }

  async query<T>(sql: string, params?: unknown[], queryOptions?: QueryOptions): Promise<QueryResult<T>> {
    this.claim()
    const { prelude, conns } = this
    const statement: BatchStatement = { text: sql, values: params, prepare: queryOptions?.prepare }
    const batch: BatchStatement[] = prelude
      ? [{ text: prelude.sql, values: prelude.params, prepare: true }, statement]
      : [statement]
    const results = (this.readOnly ? await conns.lanes.run(batch) : null) ?? (await pooledBatch(conns.pool, batch))
    return toResult<T>(results[results.length - 1]!)
  }

  async exec(sql: string) {
    this.claim()
    await pgTransaction(this.conns, (tx) => tx.exec(sql), this.prelude)
  }
}

async function pgTransaction<T>(
  conns: PgConnections,
  fn: (tx: Queryable) => Promise<T>,
  prelude?: string | Statement,
  options?: TransactionOptions,
): Promise<T> {
  if (options?.oneStatement && typeof prelude !== 'string')
    return laneTransaction(conns, fn, prelude, options.readOnly === true)
  const client = await conns.pool.connect()
  const oneStatement = options?.oneStatement === true
  /** `begin` was sent: the transaction ends with an explicit commit or rollback. */
  let explicit = false
  let opened = false
  let finished = false

  /** The prelude and `statement` in one round trip; `begin` leads unless the batch is the whole transaction. */
  async function open(statement: BatchStatement, whole: boolean): Promise<pg.QueryResult> {
    opened = true
    const batch: BatchStatement[] = []
    if (!whole || typeof prelude === 'string') explicit = true
    if (typeof prelude === 'string') await client.query(`begin;${prelude}`)
    else {
      if (explicit) batch.push({ text: 'begin' })
      if (prelude) batch.push({ text: prelude.sql, values: prelude.params, prepare: true })
    }
    batch.push(statement)
    const results = await runBatch(client, batch)
    return results[results.length - 1]!
  }

  const tx: Queryable = {
    async query<T>(sql: string, params?: unknown[], queryOptions?: QueryOptions) {
      if (finished) throw new Error(SECOND_STATEMENT)
      const statement = { text: sql, values: params, prepare: queryOptions?.prepare }
      if (oneStatement) finished = true
      if (!opened) return toResult<T>(await open(statement, oneStatement))
      return toResult<T>((await runBatch(client, [statement]))[0]!)
    },
    async exec(sql: string) {
      if (finished) throw new Error(SECOND_STATEMENT)
      if (oneStatement) finished = true
      // Several statements travel as one simple query, which cannot join a batch: open the transaction first.
      if (!opened) await open({ text: 'select' }, false)
      await client.query(sql)
    },
  }
  let broken = false
  try {
    const result = await fn(tx)
    if (explicit) await client.query('commit')
    return result
  } catch (error) {
    if (explicit) await client.query('rollback').catch(() => (broken = true))
    throw error
  } finally {
    // A connection left inside a transaction (or a broken one) is closed, never handed to the next request.
    client.release(broken || client.getTransactionStatus() !== 'I' ? true : undefined)
  }
}

async function openPostgres(databaseUrl: string, poolSize?: number): Promise<Db> {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: poolSize ?? (Number(process.env.DB_POOL_MAX) || defaultPoolSize()),
  })
  // A broken idle connection must never take the process down with it.
  pool.on('error', () => {})
  // One-statement reads (most requests) pipeline over a few connections of their own; writes use the pool.
  const lanes = new Lanes({ connectionString: databaseUrl }, Number(process.env.DB_PIPELINE_CONNECTIONS) || 2)
  const connections: PgConnections = { pool, lanes }
  return {
    kind: 'postgres',
    url: databaseUrl,
    ...wrapPg(pool),
    transaction: (fn, prelude, options) => pgTransaction(connections, fn, prelude, options),
    close: async () => {
      await Promise.all([lanes.close(), pool.end()])
    },
    // A connection of its own, outside the pool (a pooled one would be handed to requests while listening),
    // re-opened when it drops; the reconnection tells the listener as a notification with no payload.
    listen: (channel, onNotify) =>
      listenWithReconnect(databaseUrl, channel, { onNotify, onReconnect: () => onNotify('') }),
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
 * The request prelude: one prepared statement, as PostgREST sends it. `set_config('role', …, true)` is
 * `set local role`; `transaction_read_only` on is `set transaction read only` (allowed at any point while it
 * only turns read-only on); the role's own statement_timeout, which `set local role` does not apply, or
 * the current one. It answers one row of no columns: `set_config` returns the value it set, and the request's
 * headers and claims echoed back (~1 KB a request) were sent, parsed into strings and dropped for every request.
 * PostgreSQL never drops a volatile output of a subquery in FROM, so each `set_config` still runs.
 */
const REQUEST_PRELUDE =
  "select from (select set_config('role', $1, true), set_config('request.jwt.claims', $2, true), set_config('request.headers', $3, true)," +
  " set_config('request.jwt.claim.sub', $4, true), set_config('request.jwt.claim.role', $1, true)," +
  " set_config('transaction_read_only', $5, true), set_config('statement_timeout', coalesce($6, current_setting('statement_timeout')), true)) _prelude"

/**
 * Runs `fn` in one transaction as PostgREST does: the role from the verified JWT, the claims and the
 * request headers as transaction-local settings. Row-level security then applies inside Postgres.
 * On PostgreSQL the prelude travels with the first statement (and, with `oneStatement`, with the commit).
 */
export function withRequestContext<T>(
  db: Db,
  ctx: RequestContext,
  fn: (tx: Queryable) => Promise<T>,
  options?: TransactionOptions,
) {
  const prelude: Statement = {
    sql: REQUEST_PRELUDE,
    params: [
      ctx.role,
      JSON.stringify(ctx.claims),
      JSON.stringify(ctx.headers),
      String(ctx.claims.sub ?? ''),
      ctx.readOnly ? 'on' : 'off',
      ctx.statementTimeout ?? null,
    ],
  }
  return db.transaction(fn, prelude, { ...options, readOnly: ctx.readOnly === true })
}
