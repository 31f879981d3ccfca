/**
 * The request transaction of `withRequestContext` on both engines: the role, claims and headers reach the
 * statement; a failure rolls everything back; a one-statement transaction refuses a second statement. On
 * PostgreSQL also: a one-statement transaction is one round trip (one Sync, one ReadyForQuery answered),
 * concurrent transactions pipelined on shared connections each get their own answer, and a prepared
 * statement survives errors around it.
 */
import net from 'node:net'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, withRequestContext, type Db, type RequestContext } from './database'
import { initdbSnapshot } from './snapshot'
import { engines, type Engine } from '../testing/rest-fixture'

const SETUP = `
  create table tx_items (id int primary key, owner text not null);
  grant select, insert on tx_items to anon, authenticated;
  create function tx_whoami() returns text language sql as
    $$ select current_user || '|' || coalesce(nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub', '-')
       || '|' || coalesce(nullif(current_setting('request.headers', true), '')::jsonb ->> 'x-forwarded-for', '-') $$;
  grant execute on function tx_whoami() to anon, authenticated;`

const asUser = (sub: string): RequestContext => ({
  role: 'authenticated',
  claims: { sub, role: 'authenticated' },
  headers: { 'x-forwarded-for': `10.0.0.${sub.length}` },
})

/**
 * A TCP proxy in front of PostgreSQL that counts the ReadyForQuery messages the server sends: each ends
 * one round trip of the extended protocol (one Sync) or of a simple query.
 */
async function countingProxy(target: URL) {
  let readyForQuery = 0
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname)
    let pending = Buffer.alloc(0)
    upstream.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk])
      while (pending.length >= 5) {
        const length = pending.readInt32BE(1)
        if (pending.length < 1 + length) break
        if (pending[0] === 0x5a) readyForQuery += 1
        pending = pending.subarray(1 + length)
      }
      client.write(chunk)
    })
    client.pipe(upstream)
    client.on('error', () => upstream.destroy())
    upstream.on('error', () => client.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = new URL(target)
  url.port = String((server.address() as net.AddressInfo).port)
  url.hostname = '127.0.0.1'
  return { url: url.toString(), count: () => readyForQuery, close: () => new Promise((r) => server.close(r)) }
}

async function open(
  engine: Engine,
): Promise<{ db: Db; close(): Promise<void>; proxy?: Awaited<ReturnType<typeof countingProxy>> }> {
  if (engine === 'pglite') {
    const db = await openDatabase({ loadDataDir: await initdbSnapshot() })
    await db.exec(`create role anon nologin; create role authenticated nologin; ${SETUP}`)
    return { db, close: () => db.close() }
  }
  const serverUrl = new URL(process.env.TEST_DATABASE_URL!)
  const name = `growletter_tx_${process.pid}_${Date.now()}`
  const admin = new pg.Client({ connectionString: serverUrl.toString() })
  await admin.connect()
  await admin.query(`create database ${name}`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  const proxy = await countingProxy(url)
  const db = await openDatabase({ databaseUrl: proxy.url })
  // postgres is a member of the API roles on hosted (hosted-platform.sql). On a server where no migrated database
  // made them yet, this file creates them, and creating a role does not make its creator a member (PostgreSQL 15).
  await db.exec(`do $$ begin create role anon nologin; exception when duplicate_object then null; end $$;
    do $$ begin create role authenticated nologin; exception when duplicate_object then null; end $$;
    grant anon, authenticated to current_user; ${SETUP}`)
  return {
    db,
    proxy,
    async close() {
      await db.close()
      await proxy.close()
      await admin.query(`drop database if exists ${name} with (force)`).catch(() => {})
      await admin.end()
    },
  }
}

describe.each(engines)('request transactions on %s', (engine) => {
  let opened: Awaited<ReturnType<typeof open>>
  beforeAll(async () => {
    opened = await open(engine)
  }, 60_000)
  afterAll(() => opened?.close())

  for (const oneStatement of [true, false]) {
    describe(oneStatement ? 'one statement' : 'several statements', () => {
      it('runs the statement as the request role, with its claims and headers', async () => {
        const r = await withRequestContext(
          opened.db,
          asUser('user-1'),
          (tx) => tx.query<{ who: string }>('select tx_whoami() as who', [], { prepare: true }),
          { oneStatement },
        )
        expect(r.rows[0]!.who).toBe('authenticated|user-1|10.0.0.6')
        // Nothing of it stays on the connection.
        const after = await opened.db.query<{ who: string }>('select tx_whoami() as who')
        expect(after.rows[0]!.who).not.toContain('user-1')
      })

      it('rolls the whole statement back when it fails, and the prepared statement still works after', async () => {
        const id = oneStatement ? 1 : 2
        const insert = 'insert into tx_items (id, owner) select $1::int, $2::text from generate_series(1, $3::int)'
        const failing = withRequestContext(
          opened.db,
          asUser('user-2'),
          (tx) => tx.query(insert, [id, 'twice', 2], { prepare: true }),
          { oneStatement },
        )
        await expect(failing).rejects.toThrow(/duplicate key/)
        expect((await opened.db.query('select * from tx_items where id = $1', [id])).rows).toHaveLength(0)
        await withRequestContext(
          opened.db,
          asUser('user-2'),
          (tx) => tx.query(insert, [id, 'once', 1], { prepare: true }),
          { oneStatement },
        )
        expect((await opened.db.query('select owner from tx_items where id = $1', [id])).rows).toEqual([
          { owner: 'once' },
        ])
      })
    })
  }

  it('refuses a second statement in a one-statement transaction', async () => {
    const run = withRequestContext(
      opened.db,
      asUser('user-3'),
      async (tx) => {
        await tx.query('select 1')
        await tx.query('select 2')
      },
      { oneStatement: true },
    )
    await expect(run).rejects.toThrow('A one-statement transaction ran a second statement')
  })

  it('rolls back every statement of a transaction that fails after them', async () => {
    const run = withRequestContext(opened.db, asUser('user-4'), async (tx) => {
      await tx.query('insert into tx_items (id, owner) values (40, $1)', ['x'])
      await tx.query('insert into tx_items (id, owner) values (41, $1)', ['y'])
      throw new Error('the caller changed its mind')
    })
    await expect(run).rejects.toThrow('the caller changed its mind')
    expect((await opened.db.query('select * from tx_items where id in (40, 41)')).rows).toHaveLength(0)
  })

  it('gives each of many concurrent transactions its own answer, failures included', async () => {
    const runs = Array.from({ length: 60 }, (_, i) =>
      withRequestContext(
        opened.db,
        asUser(`concurrent-${i}`),
        (tx) =>
          tx.query<{ who: string; n: number }>('select tx_whoami() as who, 1 / ($1::int % 7) as n', [i], {
            prepare: true,
          }),
        { oneStatement: true },
      ).then(
        (r) => r.rows[0]!.who,
        (error: Error) => `error: ${error.message}`,
      ),
    )
    const answers = await Promise.all(runs)
    answers.forEach((answer, i) => {
      if (i % 7 === 0) expect(answer).toBe('error: division by zero')
      else expect(answer).toBe(`authenticated|concurrent-${i}|10.0.0.${`concurrent-${i}`.length}`)
    })
  })

  it.runIf(engine === 'postgres')(
    'sends a one-statement transaction in one round trip, and several statements in one each plus the commit',
    async () => {
      const statement = (tx: { query: Db['query'] }) => tx.query('select tx_whoami() as who', [], { prepare: true })
      await withRequestContext(opened.db, asUser('warm'), statement, { oneStatement: true })
      let before = opened.proxy!.count()
      await withRequestContext(opened.db, asUser('rt-1'), statement, { oneStatement: true })
      expect(opened.proxy!.count() - before).toBe(1)

      before = opened.proxy!.count()
      await withRequestContext(opened.db, asUser('rt-2'), async (tx) => {
        await statement(tx)
        await statement(tx)
      })
      // begin + prelude + first statement, the second statement, the commit.
      expect(opened.proxy!.count() - before).toBe(3)
    },
  )
})
