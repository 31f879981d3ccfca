// Deposits end to end through the real gateway, the real Deno functions, the local test checkout and the
// migrations' deposit functions: create-checkout-session (401/403/400 and the session it opens), the local
// checkout page (decline, pay), and payments-webhook with events signed by the stripe package's own test
// helper (valid, replayed, tampered, wrong secret, stale, concurrent, unknown session or user). After every
// test the balance of every wallet equals its ledger.
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { randomUUID } from 'node:crypto'
import Stripe from 'stripe'
import ws from 'ws'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { mkdtemp, readFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { envFor } from '../../../embedded-backend/cli'
import { writeEnvLocal } from '../../../embedded-backend/config'
import { startBackend, type Backend } from '../../../embedded-backend/server'
import {
  inbox,
  invoke,
  serviceClient,
  uniqueEmail,
  visitor,
  waitForEmail,
} from '../../../embedded-backend/testing/functions-e2e-helpers'

let backend: Backend
let admin: SupabaseClient

beforeAll(async () => {
  backend = await startBackend({ port: 0, dataDir: null, seed: true })
  admin = serviceClient(backend)
})
afterAll(async () => {
  await backend?.close()
})
afterEach(async () => {
  const r = await backend.db.query<{ user_id: string }>(`
    select w.user_id from public.wallet_balances w left join public.wallet_transactions t on t.user_id = w.user_id
    group by w.user_id, w.balance
    having w.balance <> coalesce(sum(t.amount) filter (where t.status = 'completed'), 0)`)
  expect(r.rows).toEqual([])
})

type Account = { id: string; email: string; client: SupabaseClient }

async function account(userType: 'advertiser' | 'publisher' = 'advertiser'): Promise<Account> {
  const email = uniqueEmail(userType)
  const password = 'a-long-password-1'
  const { data, error } = await admin.auth.admin.createUser({
    email,
    password,
    email_confirm: true,
    user_metadata: { user_type: userType },
  })
  if (error) throw error
  const client = createClient(backend.apiUrl, backend.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: ws as never },
    global: { headers: { 'x-forwarded-for': `203.0.113.${Math.floor(Math.random() * 250)}` } },
  })
  const signIn = await client.auth.signInWithPassword({ email, password })
  if (signIn.error) throw signIn.error
  return { id: data.user.id, email, client }
}

async function signedIn(email: string): Promise<SupabaseClient> {
  const client = visitor(backend)
  const { error } = await client.auth.signInWithPassword({ email, password: 'growletter-demo' })
  if (error) throw error
  return client
}

const checkout = (client: SupabaseClient, body: unknown) => invoke(client, 'create-checkout-session', body)

async function balanceOf(userId: string): Promise<string> {
  const r = await backend.db.query<{ balance: string }>(
    'select balance::text from public.wallet_balances where user_id = $1',
    [userId],
  )
  return r.rows[0]?.balance ?? '0.00'
}

async function depositOf(sessionId: string) {
  const r = await backend.db.query<{ status: string; amount: string; user_id: string }>(
    'select status, amount::text, user_id from public.deposits where stripe_session_id = $1',
    [sessionId],
  )
  return r.rows[0]
}

async function deposit(adv: Account, amount = 25, headers: Record<string, string> = {}) {
  const { data, error } = await adv.client.functions.invoke('create-checkout-session', { body: { amount }, headers })
  if (error) throw error
  const url = new URL((data as { url: string }).url)
  const sessionId = url.pathname.split('/').pop()!
  return { url, sessionId }
}

/** The session as the local checkout's Stripe API returns it (what Stripe would put in the event). */
async function sessionObject(sessionId: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${backend.apiUrl}/checkout/v1/checkout/sessions/${sessionId}`, {
    headers: { authorization: 'Bearer sk_test_local_checkout' },
  })
  expect(res.status).toBe(200)
  return (await res.json()) as Record<string, unknown>
}

function event(type: string, object: Record<string, unknown>) {
  return JSON.stringify({
    id: `evt_${randomUUID()}`,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    data: { object },
  })
}

const paid = (session: Record<string, unknown>) => ({
  ...session,
  status: 'complete',
  payment_status: 'paid',
  payment_intent: 'pi_test_1',
})

/** POSTs to the webhook exactly as Stripe does: no apikey, no JWT, a Stripe-Signature header. */
async function sendWebhook(payload: string, signature: string | null = sign(payload)) {
  const res = await fetch(`${backend.apiUrl}/functions/v1/payments-webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(signature === null ? {} : { 'stripe-signature': signature }) },
    body: payload,
  })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

function sign(payload: string, secret = backend.stripeWebhookSecret, timestamp?: number) {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp })
}

describe('create-checkout-session', () => {
  it('answers 401 to a visitor and to a request without any key, with a message', async () => {
    expect(await checkout(visitor(backend), { amount: 25 })).toEqual({
      status: 401,
      body: { error: 'Sign in to add funds to your wallet.' },
    })
    const bare = await fetch(`${backend.apiUrl}/functions/v1/create-checkout-session`, {
      method: 'POST',
      body: '{"amount":25}',
    })
    expect(bare.status).toBe(401)
  })

  it('answers 403 with a message to a publisher and to an admin', async () => {
    const publisher = await account('publisher')
    const message = 'Only advertiser accounts have a wallet to fund. Sign in with your advertiser account to add funds.'
    expect(await checkout(publisher.client, { amount: 25 })).toEqual({ status: 403, body: { error: message } })
    expect(await checkout(await signedIn('admin@growletter.test'), { amount: 25 })).toEqual({
      status: 403,
      body: { error: message },
    })
    expect(await backend.db.query('select 1 from public.deposits where user_id = $1', [publisher.id])).toMatchObject({
      rows: [],
    })
  })

  it('answers 400 with a message a person can act on for every bad amount, and opens nothing', async () => {
    const adv = await account()
    const cases: [unknown, string][] = [
      [undefined, 'Enter an amount between 10 and 10,000 credits.'],
      [null, 'Enter an amount between 10 and 10,000 credits.'],
      ['', 'Enter an amount between 10 and 10,000 credits.'],
      ['25', 'The amount must be a number of credits, for example 25 or 25.50.'],
      ['NaN', 'The amount must be a number of credits, for example 25 or 25.50.'],
      [true, 'The amount must be a number of credits, for example 25 or 25.50.'],
      [9.99, 'The minimum deposit is 10 credits.'],
      [-25, 'The minimum deposit is 10 credits.'],
      [10000.01, 'The maximum deposit is 10,000 credits per payment.'],
      [25.505, 'Use at most two decimals, for example 25.50.'],
    ]
    for (const [amount, error] of cases) {
      expect(await checkout(adv.client, amount === undefined ? {} : { amount }), String(amount)).toEqual({
        status: 400,
        body: { error },
      })
    }
    const notJson = await adv.client.functions.invoke('create-checkout-session', { body: 'amount=25' })
    expect(notJson.error).toBeTruthy()
    expect((await backend.db.query('select 1 from public.deposits where user_id = $1', [adv.id])).rows).toEqual([])
  })

  it('opens a USD session for the amount with the user, the return URLs and a pending deposit', async () => {
    const adv = await account()
    const { url, sessionId } = await deposit(adv, 19.99, { origin: 'http://127.0.0.1:4999' })
    expect(url.origin).toBe(backend.apiUrl)
    expect(sessionId).toMatch(/^cs_test_/)
    const session = await sessionObject(sessionId)
    expect(session).toMatchObject({
      mode: 'payment',
      currency: 'usd',
      amount_total: 1999,
      client_reference_id: adv.id,
      customer_email: adv.email,
      metadata: { user_id: adv.id, credits: '19.99' },
      success_url: 'http://127.0.0.1:4999/dashboard/advertiser/wallet?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://127.0.0.1:4999/dashboard/advertiser/wallet?payment=canceled',
      status: 'open',
    })
    expect(await depositOf(sessionId)).toEqual({ status: 'pending', amount: '19.99', user_id: adv.id })
    const { data } = await adv.client.from('deposits').select('status, amount, stripe_session_id')
    expect(data).toEqual([{ status: 'pending', amount: 19.99, stripe_session_id: sessionId }])
    expect(await balanceOf(adv.id)).toBe('0.00')
  })

  it('sends the browser back to the site, not to an origin it does not serve', async () => {
    const adv = await account()
    const { sessionId } = await deposit(adv, 25, { origin: 'https://evil.example' })
    expect((await sessionObject(sessionId)).success_url).toBe(
      'http://127.0.0.1:5173/dashboard/advertiser/wallet?session_id={CHECKOUT_SESSION_ID}',
    )
  })
})

describe('open checkout sessions per advertiser', () => {
  it('attack: a sixth open checkout is refused with 429 and a message, and no sixth deposit is opened', async () => {
    const adv = await account()
    for (let i = 0; i < 5; i++) await deposit(adv, 10 + i)
    expect(await checkout(adv.client, { amount: 30 })).toEqual({
      status: 429,
      body: {
        error: 'You already have 5 payment pages open. Finish or cancel one, or wait an hour, before opening another.',
      },
    })
    const open = await backend.db.query<{ n: number }>(
      "select count(*)::int as n from public.deposits where user_id = $1 and status = 'pending'",
      [adv.id],
    )
    expect(open.rows[0]!.n).toBe(5)
    // Honest: once one is paid, the advertiser can open another.
    const { sessionId } = await deposit(await account(), 25)
    expect(sessionId).toMatch(/^cs_/)
    const first = await backend.db.query<{ stripe_session_id: string }>(
      'select stripe_session_id from public.deposits where user_id = $1 order by created_at limit 1',
      [adv.id],
    )
    const payload = event('checkout.session.completed', paid(await sessionObject(first.rows[0]!.stripe_session_id)))
    expect((await sendWebhook(payload)).status).toBe(200)
    expect((await deposit(adv, 30)).sessionId).toMatch(/^cs_/)
  })
})

describe('local test checkout', () => {
  it('shows the merchant, the amount and the email; a declined card shows Stripe’s message and credits nothing', async () => {
    const adv = await account()
    const { url, sessionId } = await deposit(adv, 25)
    const page = await fetch(url)
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('Pay Growletter')
    expect(html).toContain('$25.00')
    expect(html).toContain(adv.email)
    const declined = await fetch(`${url}/decline`, { method: 'POST' })
    expect(declined.status).toBe(402)
    expect(await declined.text()).toContain('Your card was declined.')
    expect(await depositOf(sessionId)).toMatchObject({ status: 'pending' })
    expect(await balanceOf(adv.id)).toBe('0.00')
  })

  it('Pay sends a signed checkout.session.completed: the wallet gets +25.00 once, a receipt, and the browser goes back', async () => {
    const adv = await account()
    const { url, sessionId } = await deposit(adv, 25, { origin: 'http://127.0.0.1:4999' })
    const res = await fetch(`${url}/pay`, { method: 'POST', redirect: 'manual' })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(
      `http://127.0.0.1:4999/dashboard/advertiser/wallet?session_id=${sessionId}`,
    )
    expect(await balanceOf(adv.id)).toBe('25.00')
    expect(await depositOf(sessionId)).toMatchObject({ status: 'completed' })
    // Paying again (a double click) neither charges nor credits again.
    expect((await fetch(`${url}/pay`, { method: 'POST', redirect: 'manual' })).status).toBe(303)
    expect(await balanceOf(adv.id)).toBe('25.00')
    // The receipt goes through the notification queue (pg_net calls send-notifications) to the dev mailbox.
    const isReceipt = (m: { subject: string }) => m.subject.startsWith('Receipt')
    const [receipt] = await waitForEmail(backend, adv.email, 1, isReceipt)
    expect(receipt!.subject).toBe('Receipt: 25.00 credits added to your wallet')
    expect(receipt!.text).toContain(sessionId)
    await backend.cron.drainNet()
    expect((await inbox(backend, adv.email)).filter(isReceipt)).toHaveLength(1)
  })
})

describe('payments-webhook', () => {
  it('credits a valid event once; the same event replayed three times credits nothing more', async () => {
    const adv = await account()
    const { sessionId } = await deposit(adv, 40)
    const payload = event('checkout.session.completed', paid(await sessionObject(sessionId)))
    expect(await sendWebhook(payload)).toEqual({ status: 200, body: { received: true, result: 'credited' } })
    for (let i = 0; i < 3; i++) {
      expect(await sendWebhook(payload)).toEqual({ status: 200, body: { received: true, result: 'already_credited' } })
    }
    expect(await balanceOf(adv.id)).toBe('40.00')
    const ledger = await backend.db.query(
      'select amount::text, reference from public.wallet_transactions where user_id = $1',
      [adv.id],
    )
    expect(ledger.rows).toEqual([{ amount: '40.00', reference: sessionId }])
  })

  it('credits once when duplicates arrive concurrently', async () => {
    const adv = await account()
    const { sessionId } = await deposit(adv, 15)
    const payload = event('checkout.session.completed', paid(await sessionObject(sessionId)))
    const results = await Promise.all(Array.from({ length: 6 }, () => sendWebhook(payload)))
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200])
    expect(results.filter((r) => r.body.result === 'credited')).toHaveLength(1)
    expect(await balanceOf(adv.id)).toBe('15.00')
  })

  it('answers 400 and changes nothing for a tampered body, a wrong secret, a stale timestamp or no signature', async () => {
    const adv = await account()
    const { sessionId } = await deposit(adv, 25)
    const payload = event('checkout.session.completed', paid(await sessionObject(sessionId)))
    const tampered = payload
      .replace('"amount_total": 2500', '"amount_total": 250000')
      .replace('"amount_total":2500', '"amount_total":250000')
    expect(tampered).not.toBe(payload)
    const rejected = { status: 400, body: { error: 'Invalid Stripe signature' } }
    expect(await sendWebhook(tampered, sign(payload))).toEqual(rejected)
    expect(await sendWebhook(payload, sign(payload, 'whsec_not_the_right_secret'))).toEqual(rejected)
    // The package's default tolerance is 300 seconds.
    expect(await sendWebhook(payload, sign(payload, undefined, Math.floor(Date.now() / 1000) - 301))).toEqual(rejected)
    expect(await sendWebhook(payload, null)).toEqual({
      status: 400,
      body: { error: 'Missing Stripe-Signature header' },
    })
    expect(await sendWebhook(payload, 'garbage')).toEqual(rejected)
    expect(await depositOf(sessionId)).toMatchObject({ status: 'pending' })
    expect(await balanceOf(adv.id)).toBe('0.00')
  })

  it('attack: a signature dated in the future (a year, or just past the tolerance) is refused like a stale one', async () => {
    const adv = await account()
    const { sessionId } = await deposit(adv, 25)
    const payload = event('checkout.session.completed', paid(await sessionObject(sessionId)))
    const rejected = { status: 400, body: { error: 'Invalid Stripe signature' } }
    const now = Math.floor(Date.now() / 1000)
    expect(await sendWebhook(payload, sign(payload, undefined, now + 365 * 86_400))).toEqual(rejected)
    expect(await sendWebhook(payload, sign(payload, undefined, now + 310))).toEqual(rejected)
    expect(await depositOf(sessionId)).toMatchObject({ status: 'pending' })
    expect(await balanceOf(adv.id)).toBe('0.00')
    // Honest: a sender whose clock runs a little ahead (within the tolerance) is still believed.
    expect(await sendWebhook(payload, sign(payload, undefined, now + 60))).toMatchObject({ status: 200 })
    expect(await balanceOf(adv.id)).toBe('25.00')
  })

  it('answers 200 and credits nothing for an unknown session or a user who is not the depositor', async () => {
    const adv = await account()
    const { sessionId } = await deposit(adv, 25)
    const session = paid(await sessionObject(sessionId))
    const unknownSession = { ...session, id: `cs_test_${randomUUID().replace(/-/g, '')}` }
    expect(await sendWebhook(event('checkout.session.completed', unknownSession))).toEqual({
      status: 200,
      body: { received: true, result: 'unknown_session' },
    })
    for (const client_reference_id of [randomUUID(), 'not-a-user-id']) {
      const other = { ...session, client_reference_id, metadata: {} }
      expect(await sendWebhook(event('checkout.session.completed', other))).toEqual({
        status: 200,
        body: { received: true, result: 'user_mismatch' },
      })
    }
    expect(await depositOf(sessionId)).toMatchObject({ status: 'pending' })
    expect(
      (await backend.db.query('select 1 from public.deposits where stripe_session_id = $1', [unknownSession.id])).rows,
    ).toEqual([])
    expect(await balanceOf(adv.id)).toBe('0.00')
  })

  it('waits for a delayed payment, credits it on success, and closes failed or expired sessions', async () => {
    const adv = await account()
    const delayed = await deposit(adv, 30)
    const session = await sessionObject(delayed.sessionId)
    const unpaid = { ...session, status: 'complete', payment_status: 'unpaid' }
    expect((await sendWebhook(event('checkout.session.completed', unpaid))).body.result).toBe('awaiting_payment')
    expect(await depositOf(delayed.sessionId)).toMatchObject({ status: 'pending' })
    expect((await sendWebhook(event('checkout.session.async_payment_succeeded', paid(session)))).body.result).toBe(
      'credited',
    )
    expect(await balanceOf(adv.id)).toBe('30.00')
    // A reordered expiry after the credit changes nothing.
    expect((await sendWebhook(event('checkout.session.expired', session))).body.result).toBe('unchanged')

    const failed = await deposit(adv, 20)
    expect(
      (await sendWebhook(event('checkout.session.async_payment_failed', await sessionObject(failed.sessionId)))).body
        .result,
    ).toBe('closed')
    expect(await depositOf(failed.sessionId)).toMatchObject({ status: 'failed' })
    const expired = await deposit(adv, 20)
    expect(
      (await sendWebhook(event('checkout.session.expired', await sessionObject(expired.sessionId)))).body.result,
    ).toBe('closed')
    expect(await depositOf(expired.sessionId)).toMatchObject({ status: 'expired' })
    expect(await balanceOf(adv.id)).toBe('30.00')
  })

  it('verifies with the STRIPE_WEBHOOK_SECRET the backend writes to .env.local', async () => {
    const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'growletter-env-')), '.env.local')
    await writeEnvLocal(file, envFor(backend))
    const secret = /^STRIPE_WEBHOOK_SECRET=(whsec_\S+)$/m.exec(await readFile(file, 'utf8'))?.[1]
    expect(secret).toBe(backend.stripeWebhookSecret)
    const payload = event('customer.created', { id: 'cus_test_1', object: 'customer' })
    expect((await sendWebhook(payload, sign(payload, secret))).status).toBe(200)
  })

  it('answers 200 to other events and changes nothing; refuses GET', async () => {
    const payload = event('payment_intent.succeeded', { id: 'pi_test_1', object: 'payment_intent', amount: 999999 })
    expect(await sendWebhook(payload)).toEqual({ status: 200, body: { received: true, result: 'ignored' } })
    expect((await fetch(`${backend.apiUrl}/functions/v1/payments-webhook`)).status).toBe(405)
  })
})
