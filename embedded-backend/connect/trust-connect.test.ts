// Issue 37's Connect attacks, performed end to end on this run's engine (PGlite, or PostgreSQL with
// TEST_DATABASE_URL): the real gateway, the Deno functions, the Connect stand-in and the migrations, each attack beside
// the honest path it must leave working.
// * A rejection followed by a stale "payouts enabled" event of the same second left the account ready and a payout
//   went through: connect-webhook now applies the account as Stripe reports it (retrieved), and a payout requested
//   before the rejection is not sent (the claim re-checks the account).
// * transfer.reversed was ignored and a reversed payout stayed paid: the money now comes back once, however often the
//   event is delivered, and a forged or stale event cannot bring back more than Stripe reversed.
// * An admin at aal2 reconciles payouts with Stripe's list of transfers and sees each difference; nobody else can.
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { randomUUID } from 'node:crypto'
import { Secret, TOTP } from 'otpauth'
import Stripe from 'stripe'
import ws from 'ws'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { PAYOUT_ACCOUNT_MESSAGES } from '../../supabase/functions/_shared/rules/payout'
import type { Difference } from '../../supabase/functions/_shared/rules/payout-reconciliation'
import { startBackend, type Backend } from '../server'
import { invoke, serviceClient, uniqueEmail, waitForEmail } from '../testing/functions-e2e-helpers'
import { engines, postgresDatabase } from '../testing/rest-fixture'

const engine = engines[0]!
const DEMO_PASSWORD = 'growletter-demo'
const ADMIN_TOTP = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'
/** vi.waitFor's own limit (1 s) is a speed: this one only stops a hang, as the test's own limit would. */
const WAIT = { timeout: 30_000, interval: 50 }

let backend: Backend
let database: Awaited<ReturnType<typeof postgresDatabase>> | undefined
let admin: SupabaseClient

beforeAll(async () => {
  database = engine === 'postgres' ? await postgresDatabase({ seed: true }) : undefined
  // No timers: the tests call send-payouts themselves and perform queued pg_net requests (emails) with drainNet.
  backend = await startBackend({ port: 0, dataDir: null, databaseUrl: database?.url ?? '', seed: true, cron: false })
  admin = serviceClient(backend)
})
afterAll(async () => {
  await backend?.close()
  await database?.drop()
})

const client = () =>
  createClient(backend.apiUrl, backend.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: ws as never },
  })

async function signIn(email: string, password: string) {
  const c = client()
  const { error } = await c.auth.signInWithPassword({ email, password })
  if (error) throw error
  return c
}

type Publisher = { id: string; email: string; client: SupabaseClient; account: string }

async function publisher(): Promise<Omit<Publisher, 'account'>> {
  const email = uniqueEmail('connect-publisher')
  const password = 'a-long-password-1'
  const { data, error } = await admin.auth.admin.createUser({
    email,
    password,
    email_confirm: true,
    user_metadata: { user_type: 'publisher', full_name: 'Pat Connect' },
  })
  if (error) throw error
  return { id: data.user.id, email, client: await signIn(email, password) }
}

/** The stand-in's onboarding page in a browser: opens a fresh link and presses one of its buttons. */
async function onboard(p: { client: SupabaseClient }, button: 'finish' | 'reject') {
  const made = await invoke(p.client, 'create-connect-onboarding', {})
  expect(made.status).toBe(200)
  const url = made.body.url as string
  const page = await fetch(url, { redirect: 'manual' })
  const cookie = page.headers.get('set-cookie')!.split(';')[0]!
  const pressed = await fetch(`${url}/${button}`, { method: 'POST', headers: { cookie }, redirect: 'manual' })
  expect(pressed.status).toBe(303)
}

async function readyPublisher(): Promise<Publisher> {
  const p = await publisher()
  await onboard(p, 'finish')
  const account = await accountOf(p.id)
  expect(account).toMatchObject({ state: 'ready' })
  return { ...p, account: account!.stripe_account_id }
}

async function accountOf(userId: string) {
  const r = await backend.db.query<{ stripe_account_id: string; state: string; payouts_enabled: boolean }>(
    'select stripe_account_id, state, payouts_enabled from public.payout_accounts where publisher_id = $1',
    [userId],
  )
  return r.rows[0]
}

async function earn(userId: string, amount: number) {
  await backend.db.query("select private.post_ledger($1, $2, 'earning', 'completed', 'Test earning', $3)", [
    userId,
    amount,
    `test-earning-${randomUUID()}`,
  ])
}

async function requestPayout(p: Publisher | Omit<Publisher, 'account'>, amount: number): Promise<string> {
  const r = await p.client.rpc('request_payout', { p_amount: amount })
  expect(r.error).toBeNull()
  return (r.data as { id: string }).id
}

const sendPayouts = () => invoke(admin, 'send-payouts', {}, { 'x-functions-secret': backend.functionsSecret })

async function payout(id: string) {
  const r = await backend.db.query<{
    status: string
    transfer_reference: string | null
    failure_reason: string | null
    failed_before_transfer: boolean
    amount_reversed: string
  }>(
    `select status, transfer_reference, failure_reason, failed_before_transfer, amount_reversed::text
     from public.payout_requests where id = $1`,
    [id],
  )
  return r.rows[0]!
}

const balance = async (p: { client: SupabaseClient }) => (await p.client.rpc('publisher_balance')).data

/** The events the stand-in sent (as saved before their first attempt), oldest first. */
async function sentEvents(type: string, objectId: string): Promise<Stripe.Event[]> {
  const r = await backend.db.query<{ payload: string }>(
    `select payload from local_checkout.connect_deliveries where type = $1 and object_id = $2`,
    [type, objectId],
  )
  return r.rows.map((row) => JSON.parse(row.payload) as Stripe.Event).sort((a, b) => a.created - b.created)
}

/** An event delivered to connect-webhook, signed with the Connect endpoint's secret exactly as Stripe signs. */
async function deliver(event: object) {
  const payload = JSON.stringify(event)
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: backend.stripeConnectWebhookSecret })
  const res = await fetch(`${backend.apiUrl}/functions/v1/connect-webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    body: payload,
  })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

/** The stand-in's Stripe API with a test key, as an admin (or Stripe's dashboard) would use it. */
const stripeApi = (path: string, body?: Record<string, string>) =>
  fetch(`${backend.apiUrl}/checkout/v1/${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: 'Bearer sk_test_local_checkout', 'content-type': 'application/x-www-form-urlencoded' },
    body: body ? new URLSearchParams(body) : undefined,
  })

describe(`out-of-order account events (${engine})`, () => {
  it('attack: a rejection, then a stale "enabled" event of the same second; the account stays rejected, the waiting payout is not sent, a new one is refused', async () => {
    const p = await readyPublisher()
    await earn(p.id, 80)
    // Requested while the account was ready; send-payouts has not run yet.
    const waiting = await requestPayout(p, 60)
    const [enabled] = await sentEvents('account.updated', p.account)
    expect(enabled!.data.object).toMatchObject({ payouts_enabled: true })

    // Stripe rejects the account; its account.updated is applied before the browser comes back.
    await onboard(p, 'reject')
    expect(await accountOf(p.id)).toMatchObject({ state: 'action_needed', payouts_enabled: false })
    const rejected = (await sentEvents('account.updated', p.account)).at(-1)!
    expect(rejected.data.object).toMatchObject({ requirements: { disabled_reason: 'rejected.other' } })

    // The earlier "enabled" event comes again (a retry), dated the same second as the rejection.
    const stale = { ...enabled!, id: `evt_${randomUUID().replace(/-/g, '')}`, created: rejected.created }
    expect(await deliver(stale)).toEqual({ status: 200, body: { received: true, result: 'action_needed' } })
    expect(await accountOf(p.id)).toMatchObject({ state: 'action_needed', payouts_enabled: false })

    // The payout requested before the rejection is not sent: failed with why, the money available, no transfer made.
    expect(await sendPayouts()).toMatchObject({ status: 200 })
    expect(await payout(waiting)).toMatchObject({
      status: 'failed',
      transfer_reference: null,
      failure_reason: PAYOUT_ACCOUNT_MESSAGES.action_needed,
      failed_before_transfer: true,
    })
    const made = await backend.db.query(
      "select 1 from local_checkout.connect_objects where kind = 'transfer' and body->'metadata'->>'payout_id' = $1",
      [waiting],
    )
    expect(made.rows).toEqual([])
    expect(await balance(p)).toEqual([{ pending: 0, available: 80, requested: 0, paid: 0 }])
    expect((await p.client.rpc('request_payout', { p_amount: 50 })).error?.message).toBe(
      PAYOUT_ACCOUNT_MESSAGES.action_needed,
    )
    await backend.cron.drainNet()
    const [email] = await waitForEmail(backend, p.email, 1, (m) => /payout/i.test(m.subject))
    expect(email!.subject).toBe('Your payout of 60.00 credits could not be sent')
    expect(email!.text).toContain('was not sent because your payout account is not ready')
  })

  it('honest: finishing onboarding makes the account ready even when an older "not set up" event arrives after, and the payout is paid', async () => {
    const p = await publisher()
    await invoke(p.client, 'create-connect-onboarding', {})
    const account = (await accountOf(p.id))!.stripe_account_id
    const notYet = {
      id: `evt_${randomUUID().replace(/-/g, '')}`,
      object: 'event',
      type: 'account.updated',
      account,
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: account, object: 'account', details_submitted: false, payouts_enabled: false } },
    }
    await onboard(p, 'finish')
    // The stale event says "not set up"; Stripe says the account is ready, and that is what is applied.
    expect(await deliver(notYet)).toEqual({ status: 200, body: { received: true, result: 'ready' } })
    expect(await accountOf(p.id)).toMatchObject({ state: 'ready', payouts_enabled: true })
    await earn(p.id, 70)
    const id = await requestPayout(p, 50)
    expect(await sendPayouts()).toMatchObject({ status: 200 })
    expect(await payout(id)).toMatchObject({ status: 'paid', failed_before_transfer: false })
  })
})

describe(`transfer.reversed (${engine})`, () => {
  it('attack: a reversed payout stayed paid; now the money comes back once (ledger, balance, email), however often the event comes', async () => {
    const p = await readyPublisher()
    await earn(p.id, 80)
    const id = await requestPayout(p, 60)
    expect(await sendPayouts()).toMatchObject({ status: 200 })
    const transfer = (await payout(id)).transfer_reference!
    expect(transfer).toMatch(/^tr_/)
    expect(await balance(p)).toEqual([{ pending: 0, available: 20, requested: 0, paid: 60 }])

    // The platform reverses the whole transfer at Stripe; transfer.reversed reaches connect-webhook.
    const reversal = await stripeApi(`transfers/${transfer}/reversals`, {})
    expect(reversal.status).toBe(200)
    await vi.waitFor(async () => expect(await payout(id)).toMatchObject({ status: 'reversed' }), WAIT)
    expect(await payout(id)).toMatchObject({
      status: 'reversed',
      amount_reversed: '60.00',
      transfer_reference: transfer,
    })
    expect(await balance(p)).toEqual([{ pending: 0, available: 80, requested: 0, paid: 0 }])
    const { data: ledger } = await p.client
      .from('wallet_transactions')
      .select('amount, description')
      .eq('type', 'payout')
      .order('created_at')
    expect(ledger).toEqual([
      { amount: -60, description: `Payout (Stripe transfer ${transfer})` },
      { amount: 60, description: `Payout reversed by Stripe (transfer ${transfer})` },
    ])

    // Delivered again (Stripe retries), it brings nothing more back.
    const [event] = await sentEvents('transfer.reversed', transfer)
    expect(await deliver({ ...event!, id: `evt_${randomUUID().replace(/-/g, '')}` })).toEqual({
      status: 200,
      body: { received: true, result: 'already_recorded' },
    })
    expect(await balance(p)).toEqual([{ pending: 0, available: 80, requested: 0, paid: 0 }])
    await backend.cron.drainNet()
    const [email] = await waitForEmail(backend, p.email, 1, (m) => /reversed/i.test(m.subject))
    expect(email!.subject).toBe('Your payout of 60.00 credits was reversed')
    expect(email!.text).toContain(transfer)
  })

  it('honest: a paid payout whose transfer Stripe did not reverse stays paid, whatever a signed event claims', async () => {
    const p = await readyPublisher()
    await earn(p.id, 50)
    const id = await requestPayout(p, 50)
    expect(await sendPayouts()).toMatchObject({ status: 200 })
    const transfer = (await payout(id)).transfer_reference!
    const [created] = await sentEvents('transfer.created', transfer)
    const claimed = {
      ...created!,
      id: `evt_${randomUUID().replace(/-/g, '')}`,
      type: 'transfer.reversed',
      data: { object: { ...(created!.data.object as object), amount_reversed: 5000, reversed: true } },
    }
    expect(await deliver(claimed)).toEqual({ status: 200, body: { received: true, result: 'already_recorded' } })
    expect(await payout(id)).toMatchObject({ status: 'paid', amount_reversed: '0.00' })
    expect(await balance(p)).toEqual([{ pending: 0, available: 0, requested: 0, paid: 50 }])
  })
})

describe(`reconciliation with Stripe's transfers (${engine})`, () => {
  it('an admin at aal2 sees each difference (missing transfer, reversed at Stripe, transfer without payout) and none for a clean payout; nobody else may ask', async () => {
    const p = await readyPublisher()
    await earn(p.id, 200)
    const clean = await requestPayout(p, 50)
    const reversedLater = await requestPayout(p, 50)
    expect(await sendPayouts()).toMatchObject({ status: 200 })
    const reversedTransfer = (await payout(reversedLater)).transfer_reference!
    expect((await payout(clean)).status).toBe('paid')

    const staff = await signIn('admin@growletter.test', DEMO_PASSWORD)
    // At aal1 the database refuses, in its own words; a publisher is no admin.
    expect(await invoke(staff, 'reconcile-payouts', {})).toEqual({
      status: 403,
      body: { error: 'Enter your two-factor code to use admin tools' },
    })
    expect(await invoke(p.client, 'reconcile-payouts', {})).toEqual({
      status: 403,
      body: { error: 'Only an admin can do this' },
    })
    const { data: factors } = await staff.auth.mfa.listFactors()
    const mfa = await staff.auth.mfa.challengeAndVerify({
      factorId: factors!.totp[0]!.id,
      code: new TOTP({ secret: Secret.fromBase32(ADMIN_TOTP) }).generate(),
    })
    expect(mfa.error).toBeNull()

    const mine = (differences: Difference[]) =>
      differences.filter((d) => d.account === p.account || d.publisher === 'Pat Connect')
    const first = await invoke(staff, 'reconcile-payouts', {})
    expect(first.status).toBe(200)
    expect(mine(first.body.differences as Difference[])).toEqual([])
    expect(first.body).toMatchObject({ payouts_checked: expect.any(Number), transfers_seen: expect.any(Number) })

    // Three ways the books part: an admin marks a payout paid by hand with a transfer id Stripe never made; the
    // transfer.reversed of a paid payout is lost (as if connect-webhook had been down for good); and someone sends
    // the publisher money from Stripe's dashboard.
    const typed = await requestPayout(p, 50)
    expect(
      (await staff.rpc('admin_mark_payout_paid', { p_payout_id: typed, p_reference: 'tr_1TypedByHand' })).error,
    ).toBeNull()
    await stripeApi(`transfers/${reversedTransfer}/reversals`, { amount: '2000' })
    await vi.waitFor(async () => expect(await payout(reversedLater)).toMatchObject({ amount_reversed: '20.00' }), WAIT)
    await backend.db.query('update public.payout_requests set amount_reversed = 0, reversed_at = null where id = $1', [
      reversedLater,
    ])
    const direct = (await (
      await stripeApi('transfers', { amount: '1234', currency: 'usd', destination: p.account })
    ).json()) as {
      id: string
    }

    const second = await invoke(staff, 'reconcile-payouts', {})
    expect(second.status).toBe(200)
    // In the payouts' order, then the transfers no payout accounts for.
    expect(mine(second.body.differences as Difference[])).toEqual([
      {
        kind: 'reversed_at_stripe',
        payout_id: reversedLater,
        transfer_id: reversedTransfer,
        account: p.account,
        publisher: 'Pat Connect',
        recorded: '0.00 credits reversed (paid)',
        at_stripe: '20.00 credits reversed',
      },
      {
        kind: 'missing_transfer',
        payout_id: typed,
        transfer_id: 'tr_1TypedByHand',
        account: null,
        publisher: 'Pat Connect',
        recorded: '50.00 credits paid',
        at_stripe: 'no such transfer',
      },
      {
        kind: 'transfer_without_payout',
        payout_id: null,
        transfer_id: direct.id,
        account: p.account,
        publisher: 'Pat Connect',
        recorded: 'no payout',
        at_stripe: '12.34 credits transferred',
      },
    ])
  })
})
