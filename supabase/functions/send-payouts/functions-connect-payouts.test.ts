// Payouts end to end through the real gateway, the real Deno functions, the local Connect stand-in and the
// migrations' payout functions: create-connect-onboarding (401/403, one account per publisher, a link to the
// stand-in's onboarding page), the page's buttons sending signed account.updated events to connect-webhook (a bad
// signature is a 400 and changes nothing), and send-payouts transferring a requested payout once even when two runs
// are called at the same moment, or recording Stripe's refusal with the amount available again. Emails included.
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { randomUUID } from 'node:crypto'
import Stripe from 'stripe'
import ws from 'ws'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startBackend, type Backend } from '../../../embedded-backend/server'
import {
  invoke,
  serviceClient,
  uniqueEmail,
  visitor,
  waitForEmail,
} from '../../../embedded-backend/testing/functions-e2e-helpers'

let backend: Backend
let admin: SupabaseClient

beforeAll(async () => {
  // No timers: the tests call send-payouts themselves and perform queued pg_net requests (emails) with drainNet.
  backend = await startBackend({ port: 0, dataDir: null, seed: true, cron: false })
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

async function account(userType: 'advertiser' | 'publisher'): Promise<Account> {
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

const onboarding = (client: SupabaseClient) => invoke(client, 'create-connect-onboarding', {})

/** A browser on the stand-in's onboarding page pressing one of its buttons; resolves to where it is sent back. */
async function pressOnboardingButton(url: string, button: 'finish' | 'reject'): Promise<string> {
  const page = await fetch(url, { redirect: 'manual' })
  expect(page.status).toBe(200)
  const cookie = page.headers.get('set-cookie')!.split(';')[0]!
  const pressed = await fetch(`${url}/${button}`, { method: 'POST', headers: { cookie }, redirect: 'manual' })
  expect(pressed.status).toBe(303)
  return pressed.headers.get('location')!
}

async function payoutAccountOf(userId: string) {
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

/** As the database calls it (pg_net): with the functions secret. */
const sendPayouts = () => invoke(admin, 'send-payouts', {}, { 'x-functions-secret': backend.functionsSecret })

async function payout(id: string) {
  const r = await backend.db.query<{
    status: string
    transfer_reference: string | null
    failure_reason: string | null
  }>('select status, transfer_reference, failure_reason from public.payout_requests where id = $1', [id])
  return r.rows[0]
}

/** A publisher whose Express account finished onboarding on the stand-in. */
async function readyPublisher(): Promise<Account & { url: string }> {
  const p = await account('publisher')
  const made = await onboarding(p.client)
  expect(made.status).toBe(200)
  expect(made.body.url).toMatch(new RegExp(`^${backend.apiUrl}/checkout/connect/acct_[A-Za-z0-9]+/`))
  const back = await pressOnboardingButton(made.body.url as string, 'finish')
  expect(back).toBe('http://127.0.0.1:5173/dashboard/publisher/payouts?onboarding=return')
  // The stand-in sends the browser back once connect-webhook has answered: the account is ready by now.
  expect(await payoutAccountOf(p.id)).toMatchObject({ state: 'ready', payouts_enabled: true })
  return { ...p, url: made.body.url as string }
}

describe('create-connect-onboarding', () => {
  it('answers 401 to a visitor and 403 to an advertiser, with a message, and makes no account', async () => {
    expect(await onboarding(visitor(backend))).toEqual({ status: 401, body: { error: 'Sign in to set up payouts.' } })
    const advertiser = await account('advertiser')
    expect(await onboarding(advertiser.client)).toEqual({
      status: 403,
      body: {
        error: 'Only publisher accounts are paid out. Sign in with your publisher account to set up payouts.',
      },
    })
    expect(await payoutAccountOf(advertiser.id)).toBeUndefined()
  })

  it('makes the Express account once and a new onboarding link each time (start, then resume)', async () => {
    const p = await account('publisher')
    const first = await onboarding(p.client)
    const second = await onboarding(p.client)
    expect(first.status).toBe(200)
    expect(second.status).toBe(200)
    const acct = (await payoutAccountOf(p.id))!.stripe_account_id
    expect(first.body.url).toContain(`/checkout/connect/${acct}/`)
    expect(second.body.url).toContain(`/checkout/connect/${acct}/`)
    expect(second.body.url).not.toBe(first.body.url)
    expect(await payoutAccountOf(p.id)).toMatchObject({ state: 'not_set_up', payouts_enabled: false })
  })
})

describe('connect-webhook', () => {
  it('answers 400 to a missing or bad signature and changes nothing; a good one is processed as Stripe reports the account', async () => {
    const p = await account('publisher')
    await onboarding(p.client)
    const acct = (await payoutAccountOf(p.id))!.stripe_account_id
    const payload = JSON.stringify({
      id: `evt_${randomUUID()}`,
      object: 'event',
      type: 'account.updated',
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: acct,
          object: 'account',
          details_submitted: true,
          payouts_enabled: true,
          requirements: { currently_due: [], past_due: [], disabled_reason: null },
        },
      },
    })
    const send = async (signature: string | null) => {
      const res = await fetch(`${backend.apiUrl}/functions/v1/connect-webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
        body: payload,
      })
      return { status: res.status, body: (await res.json()) as Record<string, unknown> }
    }
    const sign = (secret: string) => Stripe.webhooks.generateTestHeaderString({ payload, secret })
    expect(await send(null)).toEqual({ status: 400, body: { error: 'Missing Stripe-Signature header' } })
    expect(await send(sign('whsec_not_the_connect_secret'))).toEqual({
      status: 400,
      body: { error: 'Invalid Stripe signature' },
    })
    // The checkout's secret is another endpoint's: it does not sign Connect events.
    expect((await send(sign(backend.stripeWebhookSecret))).status).toBe(400)
    expect(await payoutAccountOf(p.id)).toMatchObject({ state: 'not_set_up', payouts_enabled: false })
    // A good signature is processed, but what it claims is not believed: the account is applied as Stripe reports it
    // now (retrieved), and this one has not finished onboarding (issue 37).
    expect(await send(sign(backend.stripeConnectWebhookSecret))).toEqual({
      status: 200,
      body: { received: true, result: 'not_set_up' },
    })
    expect(await payoutAccountOf(p.id)).toMatchObject({ state: 'not_set_up', payouts_enabled: false })
  })
})

describe('send-payouts', () => {
  it('only the database may call it', async () => {
    const p = await account('publisher')
    expect(await invoke(p.client, 'send-payouts', {})).toEqual({
      status: 403,
      body: { error: 'Only the database may send payouts' },
    })
  })

  it("pays the seed's demo publisher through the account the stand-in adopted at start", async () => {
    const account = await fetch(`${backend.apiUrl}/checkout/v1/accounts/acct_1GrowletterDemoPub`, {
      headers: { authorization: 'Bearer sk_test_local_checkout' },
    })
    expect(await account.json()).toMatchObject({ payouts_enabled: true, capabilities: { transfers: 'active' } })
    expect(await sendPayouts()).toMatchObject({ status: 200 })
    const seeded = await payout('30000000-0000-4000-a000-000000000002')
    expect(seeded).toMatchObject({ status: 'paid', failure_reason: null })
    expect(seeded!.transfer_reference).toMatch(/^tr_/)
  })

  it('onboarded, earned and requested: two runs at once transfer the payout once, with its tr_ reference and an email', async () => {
    const p = await readyPublisher()
    await earn(p.id, 80)
    const requested = await p.client.rpc('request_payout', { p_amount: 60 })
    expect(requested.error).toBeNull()
    const id = (requested.data as { id: string }).id
    const [a, b] = await Promise.all([sendPayouts(), sendPayouts()])
    expect(a.status).toBe(200)
    expect(b.status).toBe(200)
    const sent = await payout(id)
    expect(sent).toMatchObject({ status: 'paid', failure_reason: null })
    expect(sent!.transfer_reference).toMatch(/^tr_/)
    // Exactly one transfer was made for this payout, of 6,000 cents to the publisher's account.
    const transfers = await backend.db.query<{ body: { amount: number; destination: string } }>(
      "select body from local_checkout.connect_objects where kind = 'transfer' and body->'metadata'->>'payout_id' = $1",
      [id],
    )
    const acct = (await payoutAccountOf(p.id))!.stripe_account_id
    expect(transfers.rows.map((r) => r.body)).toEqual([
      expect.objectContaining({ id: sent!.transfer_reference, amount: 6000, destination: acct, currency: 'usd' }),
    ])
    // Another run finds nothing to send; the transfer.created event changed nothing more.
    expect(await sendPayouts()).toMatchObject({ status: 200 })
    expect(await payout(id)).toEqual(sent)
    const balance = await p.client.rpc('publisher_balance')
    expect(balance.data).toEqual([{ pending: 0, available: 20, requested: 0, paid: 60 }])
    await backend.cron.drainNet()
    const [email] = await waitForEmail(backend, p.email, 1, (m) => /payout/i.test(m.subject))
    expect(email!.subject).toBe('Your payout of 60.00 credits is on its way')
    expect(email!.text).toContain(sent!.transfer_reference!)
  })

  it('a transfer Stripe refuses (the account was rejected before we heard) fails with its reason, and the amount is available again', async () => {
    const p = await readyPublisher()
    await earn(p.id, 75)
    const requested = await p.client.rpc('request_payout', { p_amount: 75 })
    expect(requested.error).toBeNull()
    const id = (requested.data as { id: string }).id
    // Stripe rejects the account before the transfer goes out, and its event has not reached us yet: the database
    // still says ready (a rejection it knows of fails the payout before any transfer: trust-connect.test.ts).
    const again = await onboarding(p.client)
    await pressOnboardingButton(again.body.url as string, 'reject')
    expect(await payoutAccountOf(p.id)).toMatchObject({ state: 'action_needed', payouts_enabled: false })
    const acct = (await payoutAccountOf(p.id))!.stripe_account_id
    await backend.db.query(
      `update public.payout_accounts set state = 'ready', payouts_enabled = true, requirements_due = '{}',
         disabled_reason = null where publisher_id = $1`,
      [p.id],
    )

    expect(await sendPayouts()).toMatchObject({ status: 200 })
    expect(await payout(id)).toEqual({
      status: 'failed',
      transfer_reference: null,
      failure_reason:
        'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments',
    })
    expect((await p.client.rpc('publisher_balance')).data).toEqual([
      { pending: 0, available: 75, requested: 0, paid: 0 },
    ])
    // The rejection's event arrives (Stripe retries it): the account is what Stripe reports, and a new request is
    // refused until Stripe is satisfied.
    const rejection = await backend.db.query<{ payload: string }>(
      `select payload from local_checkout.connect_deliveries where type = 'account.updated' and object_id = $1
       order by next_attempt_at desc limit 1`,
      [acct],
    )
    const payload = rejection.rows[0]!.payload
    const late = await fetch(`${backend.apiUrl}/functions/v1/connect-webhook`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': Stripe.webhooks.generateTestHeaderString({
          payload,
          secret: backend.stripeConnectWebhookSecret,
        }),
      },
      body: payload,
    })
    expect(await late.json()).toEqual({ received: true, result: 'action_needed' })
    expect((await p.client.rpc('request_payout', { p_amount: 50 })).error?.message).toBe(
      'Stripe needs more information before you can be paid. Open "Set up payouts" and finish what it asks.',
    )
    await backend.cron.drainNet()
    const [email] = await waitForEmail(backend, p.email, 1, (m) => /payout/i.test(m.subject))
    expect(email!.subject).toBe('Your payout of 75.00 credits could not be sent')
  })
})
