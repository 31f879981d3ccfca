/**
 * No request waits on a stranger's lock (issue 28): while one request waits for a row another transaction
 * holds locked, requests that touch other rows, reads and writes, all answer. On PostgreSQL only: PGlite has
 * one connection, where nothing else can hold a lock while a request runs.
 */
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { engines, startTestBackend, type TestBackend } from '../testing/rest-fixture'

const SETUP = `
  create table gw_hol_wallets (id int primary key, balance int not null);
  insert into gw_hol_wallets select i, 100 from generate_series(1, 40) i;
  create table gw_hol_items (id int primary key, name text not null);
  insert into gw_hol_items select i, 'item ' || i from generate_series(1, 40) i;
  grant select, update on gw_hol_wallets to anon;
  grant select on gw_hol_items to anon;`

for (const engine of engines) {
  describe.runIf(engine === 'postgres')(`requests beside a locked row (${engine})`, () => {
    let backend: TestBackend
    let locker: pg.Client

    beforeAll(async () => {
      backend = await startTestBackend(engine, SETUP)
      locker = new pg.Client({ connectionString: backend.databaseUrl })
      await locker.connect()
    })
    afterAll(async () => {
      await locker?.end()
      await backend?.close()
    })

    const patch = (id: number, balance: number) =>
      backend.fetch(`/rest/v1/gw_hol_wallets?id=eq.${id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', prefer: 'return=minimal' },
        body: JSON.stringify({ balance }),
      })

    it('answers reads and writes of other rows while one write waits for a locked row', async () => {
      await locker.query('begin')
      await locker.query('select * from gw_hol_wallets where id = 1 for update')
      let waitingDone = false
      // anon's statement_timeout (3 s) would end this wait: the lock is released long before, once the others answered.
      const waiting = patch(1, 1).then((res) => {
        waitingDone = true
        return res.status
      })
      try {
        // Concurrent, so they would share connections with the waiting write if it were pipelined with them.
        const others = await Promise.all([
          ...Array.from({ length: 12 }, (_, i) =>
            backend.fetch(`/rest/v1/gw_hol_items?select=name&id=eq.${i + 1}`).then((r) => r.status),
          ),
          ...Array.from({ length: 12 }, (_, i) => patch(i + 2, 50).then((r) => r.status)),
        ])
        expect(others).toEqual([...Array(12).fill(200), ...Array(12).fill(204)])
        expect(waitingDone).toBe(false)
      } finally {
        await locker.query('rollback')
      }
      expect(await waiting).toBe(204)
      const { rows } = await locker.query('select balance from gw_hol_wallets where id in (1, 2) order by id')
      expect(rows).toEqual([{ balance: 1 }, { balance: 50 }])
    })
  })
}
