/**
 * The REST layer's `notify pgrst` listener survives its connection (db/listener.ts): when the server ends the
 * listening connection, it listens again, says so (the REST layer reloads then), and hears what is sent after.
 * On PostgreSQL only (TEST_DATABASE_URL): PGlite's listener lives in-process and has no connection to lose.
 */
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { listenWithReconnect } from './listener'

const url = process.env.TEST_DATABASE_URL
const CHANNEL = 'gw_listener_test'

describe.runIf(url)('a LISTEN that outlives its connection (PostgreSQL)', () => {
  let admin: pg.Client
  const listeners = () =>
    admin
      .query<{ pid: number }>(`select pid from pg_stat_activity where query = $1`, [`listen "${CHANNEL}"`])
      .then((r) => r.rows.map((row) => row.pid))

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: url })
    await admin.connect()
  })
  afterAll(() => admin?.end())

  it('listens again after the server ends its connection, reports it, and hears what follows', async () => {
    const payloads: string[] = []
    let reconnections = 0
    const stop = await listenWithReconnect(url!, CHANNEL, {
      onNotify: (payload) => payloads.push(payload),
      onReconnect: () => reconnections++,
    })
    try {
      await admin.query(`notify ${CHANNEL}, 'before'`)
      await vi.waitFor(() => expect(payloads).toEqual(['before']))
      const [first] = await listeners()
      expect(first).toBeDefined()
      await admin.query('select pg_terminate_backend($1)', [first])
      await vi.waitFor(() => expect(reconnections).toBe(1), { timeout: 30_000, interval: 50 })
      const [second] = await listeners()
      expect(second).toBeDefined()
      expect(second).not.toBe(first)
      await admin.query(`notify ${CHANNEL}, 'after'`)
      await vi.waitFor(() => expect(payloads).toEqual(['before', 'after']))
    } finally {
      await stop()
    }
    // Stopped means stopped: no connection left listening, none re-opened.
    await vi.waitFor(async () => expect(await listeners()).toEqual([]))
    expect(reconnections).toBe(1)
  })

  it('rejects when the first connection cannot be made, leaving nothing to retry', async () => {
    const unreachable = new URL(url!)
    unreachable.port = '1'
    await expect(listenWithReconnect(unreachable.toString(), CHANNEL, { onNotify: () => {} })).rejects.toThrow()
  })
})
