// Notification emails: queued in the transaction of the event they announce, read by nobody but the
// service role, claimed by one sender at a time, retried with backoff when sending fails, and handed to
// the send-notifications function through pg_net only after the event commits.
import { randomUUID } from 'node:crypto'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Db } from '../../embedded-backend/db/database'
import { errorOf, queryAs, service, testDb, STORE_VAULT_SECRETS } from './helpers/db'
import { actors, createUser, ledgerMismatches } from './helpers/fixtures'
import { createMarket } from './helpers/market'

let db: Db
beforeAll(async () => {
  db = await testDb()
})
afterEach(async () => {
  expect(await ledgerMismatches()).toEqual([])
})

/** Orders values by their JSON with object keys sorted (jsonb does not keep key order). */
const canonical = (v: unknown) =>
  JSON.stringify(v, (_k, val: unknown) =>
    val && typeof val === 'object' && !Array.isArray(val) ? Object.fromEntries(Object.entries(val).sort()) : val,
  )
const byJson = (a: unknown, b: unknown) => canonical(a).localeCompare(canonical(b))

type Queued = { id: string; template: string; data: Record<string, unknown>; status: string; attempts: number }
const queueOf = async (userId: string) =>
  (
    await db.query<Queued>(
      'select id, template, data, status, attempts from public.notification_queue where user_id = $1 order by created_at, id',
      [userId],
    )
  ).rows

const enqueue = async (userId: string, template = 'payout_paid', data: object = { amount: 50, reference: 'T-1' }) =>
  (await db.query<{ id: string }>('select private.enqueue_notification($1, $2, $3) as id', [userId, template, data]))
    .rows[0]!.id

/** Vault secrets as the backend writes them at start; removed again so other files see none. */
async function withSecrets<T>(fn: () => Promise<T>): Promise<T> {
  await db.exec(STORE_VAULT_SECRETS)
  try {
    return await fn()
  } finally {
    await db.query("delete from vault.secrets where name in ('project_url', 'functions_secret')")
    await db.query("delete from net.http_request_queue where url like '%/functions/v1/send-notifications'")
  }
}

describe('notification queue', () => {
  it('is readable and writable by the service role only; the API roles cannot queue, claim or finish', async () => {
    const p = await createUser('publisher')
    await enqueue(p.id)
    for (const actor of [actors.advertiser, actors.admin, p.actor]) {
      expect(await errorOf(actor, 'select * from public.notification_queue')).toMatch(/permission denied/)
      expect(await errorOf(actor, 'select * from public.claim_notifications(1)')).toMatch(/permission denied/)
      expect(await errorOf(actor, 'select public.finish_notification($1)', [randomUUID()])).toMatch(/permission denied/)
      expect(await errorOf(actor, "select private.enqueue_notification($1, 'payout_paid', '{}')", [p.id])).toMatch(
        /permission denied/,
      )
    }
    expect(await queryAs(service, 'select template from public.notification_queue where user_id = $1', [p.id])).toEqual(
      [{ template: 'payout_paid' }],
    )
  })

  it('queues an event once per dedupe key and refuses unknown templates', async () => {
    const p = await createUser('publisher')
    const q = (key: string) => db.query("select private.enqueue_notification($1, 'payout_paid', '{}', $2)", [p.id, key])
    await q('payout_paid:one')
    await q('payout_paid:one')
    expect(await queueOf(p.id)).toHaveLength(1)
    await expect(enqueue(p.id, 'no_such_template')).rejects.toThrow(/notification_queue_template_check/)
  })

  it('lets one sender claim an email at a time, retries failures with backoff, gives up after 8 attempts', async () => {
    const p = await createUser('publisher')
    const id = await enqueue(p.id)
    const claim = () => queryAs<{ id: string; email: string }>(service, 'select * from public.claim_notifications(100)')
    const [first, second] = await Promise.all([claim(), claim()])
    const mine = [...first, ...second].filter((r) => r.id === id)
    expect(mine).toEqual([expect.objectContaining({ id, email: p.email })])
    const finish = async (error: string | null) =>
      (await queryAs<{ r: string }>(service, 'select public.finish_notification($1, $2) as r', [id, error]))[0]!.r
    expect(await finish('SMTP said 451')).toBe('queued')
    const [row] = (
      await db.query<{ status: string; attempts: number; wait: number; last_error: string }>(
        `select status, attempts, extract(epoch from next_attempt_at - now())::int as wait, last_error
         from public.notification_queue where id = $1`,
        [id],
      )
    ).rows
    expect(row).toMatchObject({ status: 'queued', attempts: 1, last_error: 'SMTP said 451' })
    expect(row!.wait).toBeGreaterThanOrEqual(55)
    expect(row!.wait).toBeLessThanOrEqual(60)
    expect((await claim()).some((r) => r.id === id)).toBe(false) // not due yet
    // Due again; after the 8th failed attempt it is given up.
    for (let attempt = 2; attempt <= 8; attempt++) {
      await db.query(
        "update public.notification_queue set next_attempt_at = now() - interval '1 second' where id = $1",
        [id],
      )
      expect((await claim()).some((r) => r.id === id)).toBe(true)
      expect(await finish('still failing')).toBe(attempt === 8 ? 'failed' : 'queued')
    }
    expect((await queueOf(p.id))[0]).toMatchObject({ status: 'failed', attempts: 8 })
  })

  it('gives a claimed email to another sender when the first one died (lease expired), and marks it sent once', async () => {
    const p = await createUser('publisher')
    const id = await enqueue(p.id)
    expect(
      (await queryAs<{ id: string }>(service, 'select * from public.claim_notifications(100)')).some(
        (r) => r.id === id,
      ),
    ).toBe(true)
    await db.query("update public.notification_queue set locked_until = now() - interval '1 second' where id = $1", [
      id,
    ])
    expect(
      (await queryAs<{ id: string }>(service, 'select * from public.claim_notifications(100)')).some(
        (r) => r.id === id,
      ),
    ).toBe(true)
    expect(await queryAs(service, 'select public.finish_notification($1) as r', [id])).toEqual([{ r: 'sent' }])
    expect(await queryAs(service, 'select public.finish_notification($1) as r', [id])).toEqual([{ r: 'sent' }])
    expect((await queueOf(p.id))[0]).toMatchObject({ status: 'sent', attempts: 2 })
  })

  it('asks the sender through pg_net once per transaction, only after commit, with the Vault secrets', async () => {
    const p = await createUser('publisher')
    await withSecrets(async () => {
      const before = await db.query<{ n: number }>('select count(*)::int as n from net.http_request_queue')
      await db
        .transaction(async (tx) => {
          await tx.query("select private.enqueue_notification($1, 'payout_paid', '{}')", [p.id])
          throw new Error('roll back')
        })
        .catch(() => {})
      expect((await db.query<{ n: number }>('select count(*)::int as n from net.http_request_queue')).rows).toEqual(
        before.rows,
      )
      await db.transaction(async (tx) => {
        await tx.query("select private.enqueue_notification($1, 'payout_paid', '{}')", [p.id])
        await tx.query("select private.enqueue_notification($1, 'payout_paid', '{}')", [p.id])
      })
      const calls = await db.query<{ url: string; method: string; headers: Record<string, string> }>(
        "select url, method::text, headers from net.http_request_queue where url like '%send-notifications'",
      )
      expect(calls.rows).toEqual([
        {
          url: 'http://127.0.0.1:54321/functions/v1/send-notifications',
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'x-functions-secret': 'functions-secret' },
        },
      ])
    })
  })

  it('makes the scheduled job fail loudly when due emails cannot be sent for lack of Vault secrets', async () => {
    const p = await createUser('publisher')
    await enqueue(p.id)
    await expect(db.query('select private.dispatch_notifications()')).rejects.toThrow(
      "Store project_url and functions_secret in Vault (vault.create_secret) so scheduled jobs can call edge functions; functions_secret must equal the functions' FUNCTIONS_SECRET",
    )
    await withSecrets(async () => {
      const due = await db.query<{ n: number }>('select private.dispatch_notifications() as n')
      expect(due.rows[0]!.n).toBeGreaterThanOrEqual(1)
    })
    await db.query("update public.notification_queue set status = 'sent' where status <> 'sent'")
  })
})

describe('events that notify', () => {
  it('tells a publisher their source was approved, rejected with the note, banned and reinstated', async () => {
    const m = await createMarket({ deposit: 0 })
    await db.query("update public.audience_sources set status = 'pending_review' where id = $1", [m.sourceId])
    const set = (status: string, note: string | null) =>
      db.query('update public.audience_sources set status = $2, review_note = $3 where id = $1', [
        m.sourceId,
        status,
        note,
      ])
    await set('rejected', 'Add a description')
    await set('approved', null)
    await set('banned', 'Bought traffic')
    await set('approved', null)
    // Rows of one quick test can share a timestamp: compare them as a set.
    expect((await queueOf(m.publisher.id)).map((n) => [n.template, n.data]).sort(byJson)).toEqual(
      [
        ['source_reviewed', { source_name: 'Test source', status: 'rejected', note: 'Add a description' }],
        ['source_reviewed', { source_name: 'Test source', status: 'approved', note: null }],
        ['source_reviewed', { source_name: 'Test source', status: 'banned', note: 'Bought traffic' }],
        ['source_reviewed', { source_name: 'Test source', status: 'reinstated', note: null }],
      ].sort(byJson),
    )
  })

  it('tells an advertiser their campaign was approved or rejected, but not when they pause or resume it', async () => {
    const m = await createMarket({ deposit: 100 })
    await db.query("update public.campaigns set status = 'pending_review' where id = $1", [m.campaignId])
    for (const [status, note] of [
      ['rejected', 'Broken link'],
      ['active', null],
      ['paused', null],
      ['active', null],
    ]) {
      await db.query('update public.campaigns set status = $2, review_note = $3 where id = $1', [
        m.campaignId,
        status,
        note,
      ])
    }
    const reviewed = (await queueOf(m.advertiser.id)).filter((n) => n.template === 'campaign_reviewed')
    expect(reviewed.map((n) => n.data).sort(byJson)).toEqual(
      [
        { campaign_name: 'Test newsletter', status: 'rejected', note: 'Broken link' },
        { campaign_name: 'Test newsletter', status: 'approved', note: null },
      ].sort(byJson),
    )
  })

  it('warns an advertiser when the available balance cannot pay five subscribers, once between two top-ups', async () => {
    const m = await createMarket({ deposit: 30, price: 10, budget: 1000 })
    const run = async () => (await db.query<{ n: number }>('select private.notify_low_balances() as n')).rows[0]!.n
    await run()
    const lows = async () => (await queueOf(m.advertiser.id)).filter((n) => n.template === 'low_balance')
    expect((await lows()).map((n) => n.data)).toEqual([{ available: 30, threshold: 50 }])
    await run()
    expect(await lows()).toHaveLength(1)

    // Out of the low zone and back without a top-up (a lower price, then the old one again): no second email.
    const setPrice = (price: number) =>
      db.query('update public.campaigns set price_per_subscriber = $2 where id = $1', [m.campaignId, price])
    await setPrice(5)
    await run()
    await setPrice(10)
    await run()
    expect(await lows()).toHaveLength(1)

    // A top-up that leaves five subscribers' worth or more: nothing to say.
    await db.query('select public.credit_deposit($1, 100, $2)', [m.advertiser.id, `cs_${randomUUID()}`])
    await run()
    expect(await lows()).toHaveLength(1)

    // Spending it down again after that top-up: one new email.
    await setPrice(30)
    await run()
    await run()
    expect((await lows()).map((n) => n.data)).toEqual([
      { available: 30, threshold: 50 },
      { available: 130, threshold: 150 },
    ])
  })
})
