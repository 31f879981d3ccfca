// The local checkout's delivery of events, as Stripe delivers them: each attempt signed anew with the
// webhook secret (verifiable by the stripe package), retried with growing delays while the webhook does
// not answer 2xx, and stopped once it does; sessions expire with a checkout.session.expired event.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import Stripe from 'stripe'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createCheckoutSessions, type CheckoutSessions } from './sessions'
import { databaseStore } from './store'
import { openDatabase, type Db } from '../db/database'
import { initdbSnapshot } from '../db/snapshot'

const SECRET = 'whsec_test_checkout_sessions'
const stripe = new Stripe('sk_test_unused')

type Received = { type: string; sessionId: string; at: number }

let server: http.Server | undefined
let sessions: CheckoutSessions | undefined
afterEach(async () => {
  sessions?.close()
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)))
  server = undefined
})

/** A webhook that answers with the given statuses in turn (then 200), verifying each signature. */
async function webhook(statuses: number[]) {
  const received: Received[] = []
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const event = stripe.webhooks.constructEvent(
        Buffer.concat(chunks),
        String(req.headers['stripe-signature']),
        SECRET,
      )
      received.push({ type: event.type, sessionId: (event.data.object as { id: string }).id, at: Date.now() })
      res.writeHead(statuses.shift() ?? 200).end('{}')
    })
  })
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received }
}

function params(overrides: Record<string, string> = {}) {
  return new URLSearchParams({
    mode: 'payment',
    'line_items[0][quantity]': '1',
    'line_items[0][price_data][currency]': 'usd',
    'line_items[0][price_data][unit_amount]': '2500',
    'line_items[0][price_data][product_data][name]': '25.00 Growletter credits',
    client_reference_id: '00000000-0000-4000-a000-000000000002',
    customer_email: 'advertiser@growletter.test',
    success_url: 'http://127.0.0.1:5173/dashboard/advertiser/wallet?session_id={CHECKOUT_SESSION_ID}',
    cancel_url: 'http://127.0.0.1:5173/dashboard/advertiser/wallet?payment=canceled',
    ...overrides,
  })
}

/** vi.waitFor's own limit (1 s) is a speed: this one only stops a hang, as the test's own limit would. */
const WAIT = { timeout: 20_000, interval: 20 }

/** Waits for the condition however long a busy machine takes (the test's own limit stops a hang). */
const until = async (check: () => boolean) => {
  while (!check()) await new Promise((r) => setTimeout(r, 10))
}

describe('local checkout sessions', () => {
  it('retries a webhook that fails until it answers 2xx, signing every attempt, then stops', async () => {
    const hook = await webhook([500, 503])
    sessions = createCheckoutSessions({
      pageBaseUrl: 'http://x/checkout',
      webhookUrl: hook.url,
      webhookSecret: SECRET,
      retryDelaysMs: [20, 40, 80],
      log: () => {},
    })
    const session = await sessions.create(params())
    await sessions.pay(session.id)
    await until(() => hook.received.length >= 3)
    await new Promise((r) => setTimeout(r, 150))
    expect(hook.received.map((r) => [r.type, r.sessionId])).toEqual([
      ['checkout.session.completed', session.id],
      ['checkout.session.completed', session.id],
      ['checkout.session.completed', session.id],
    ])
    expect(hook.received[2]!.at - hook.received[1]!.at).toBeGreaterThanOrEqual(35)
  })

  it('gives up after the last delay when the webhook never answers 2xx', async () => {
    const hook = await webhook([500, 500, 500, 500, 500])
    const logged: string[] = []
    sessions = createCheckoutSessions({
      pageBaseUrl: 'http://x/checkout',
      webhookUrl: hook.url,
      webhookSecret: SECRET,
      retryDelaysMs: [10, 10],
      log: (line) => void logged.push(line),
    })
    await sessions.pay((await sessions.create(params())).id)
    // The sender says when it gives up: wait for that, not for a time that a busy machine may overrun.
    await until(() => logged.some((line) => /gave up after 3 attempts/.test(line)))
    expect(hook.received).toHaveLength(3)
  })

  it('answers the same session to the same idempotency key, and refuses what Stripe refuses', async () => {
    sessions = createCheckoutSessions({
      pageBaseUrl: 'http://x/checkout',
      webhookUrl: 'http://127.0.0.1:9/',
      webhookSecret: SECRET,
    })
    const a = await sessions.create(params(), 'key-1')
    expect(await sessions.create(params({ 'line_items[0][price_data][unit_amount]': '9999' }), 'key-1')).toBe(a)
    expect(a).toMatchObject({ amount_total: 2500, currency: 'usd', status: 'open', url: `http://x/checkout/${a.id}` })
    await expect(sessions.create(params({ 'line_items[0][price_data][unit_amount]': '49' }))).rejects.toThrow(
      /at least 50 cents/,
    )
    await expect(sessions.create(params({ success_url: '' }))).rejects.toThrow('Missing required param: success_url.')
    await expect(sessions.create(params({ mode: 'subscription' }))).rejects.toThrow(/mode=payment/)
  })

  it('expires an unpaid session with a signed checkout.session.expired, and then it cannot be paid', async () => {
    const hook = await webhook([])
    sessions = createCheckoutSessions({
      pageBaseUrl: 'http://x/checkout',
      webhookUrl: hook.url,
      webhookSecret: SECRET,
      log: () => {},
    })
    const session = await sessions.create(params())
    await sessions.expire(session.id)
    await until(() => hook.received.length >= 1)
    expect(hook.received.map((r) => r.type)).toEqual(['checkout.session.expired'])
    expect((await sessions.pay(session.id))?.status).toBe('expired')
    expect(hook.received).toHaveLength(1)
  })

  describe('across a restart (sessions and owed deliveries saved in the database)', () => {
    let db: Db | undefined
    afterEach(async () => {
      await db?.close()
      db = undefined
    })

    it('still knows its sessions, and delivers a payment the webhook had not yet accepted', async () => {
      db = await openDatabase({ loadDataDir: await initdbSnapshot() })
      // The webhook fails while the first backend runs: the paid session's event is still owed when it stops.
      const hook = await webhook([500])
      const options = {
        pageBaseUrl: 'http://x/checkout',
        webhookUrl: hook.url,
        webhookSecret: SECRET,
        retryDelaysMs: [60_000],
      }
      const first = createCheckoutSessions({ ...options, store: await databaseStore(db), log: () => {} })
      sessions = first
      const paid = await first.create(params(), 'key-restart')
      const open = await first.create(params())
      await first.pay(paid.id)
      expect(hook.received.map((r) => r.type)).toEqual(['checkout.session.completed'])
      first.close()

      // The next start: a retry a minute away was due while it was down, so it goes at once.
      await db.exec(`update local_checkout.deliveries set next_attempt_at = now() - interval '1 second'`)
      const second = createCheckoutSessions({ ...options, store: await databaseStore(db), log: () => {} })
      sessions = second
      await second.resume()
      await until(() => hook.received.length >= 2)
      expect(hook.received.map((r) => [r.type, r.sessionId])).toEqual([
        ['checkout.session.completed', paid.id],
        ['checkout.session.completed', paid.id],
      ])
      expect(second.get(paid.id)).toMatchObject({ status: 'complete', payment_status: 'paid' })
      expect(second.get(open.id)).toMatchObject({ status: 'open', url: `http://x/checkout/${open.id}` })
      expect(second.productName(open.id)).toBe('25.00 Growletter credits')
      expect(await second.create(params(), 'key-restart')).toMatchObject({ id: paid.id })
      // Delivered: the event is no longer owed, so a later start sends nothing again.
      await vi.waitFor(async () => {
        const { rows } = await db!.query<{ state: string }>('select state from local_checkout.deliveries')
        expect(rows).toEqual([{ state: 'delivered' }])
      }, WAIT)
      second.close()
      const third = createCheckoutSessions({ ...options, store: await databaseStore(db), log: () => {} })
      sessions = third
      await third.resume()
      expect(third.get(paid.id)?.status).toBe('complete')
    })
  })
})
