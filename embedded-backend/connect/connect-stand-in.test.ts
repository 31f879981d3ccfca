// The local Stripe Connect stand-in, driven by the real `stripe` package as the payout functions will drive it (its
// /v1/… requests sent to /checkout/v1/…, as supabase/functions/_shared/stripe.ts does), through the real gateway:
// Express accounts, onboarding links and the onboarding page's two buttons, with the account.updated events received
// by a webhook that verifies them with stripe.webhooks.constructEvent; transfers once per Idempotency-Key, and
// refused with Stripe's error to an account that cannot receive them; events and objects surviving a restart; and the
// backend's wiring (the secret in .env.local, the routes beside the test checkout).
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtemp, readFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import Stripe from 'stripe'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { envFor } from '../cli'
import { writeEnvLocal } from '../config'
import type { Handler } from '../context'
import { openDatabase, type Db } from '../db/database'
import { initdbSnapshot } from '../db/snapshot'
import { connectWebhookSecret, createConnectHandler, LOCAL_STRIPE_CONNECT_WEBHOOK_SECRET, withConnect } from './index'
import { createGateway } from '../gateway'
import { engines, postgresDatabase } from '../testing/rest-fixture'
import { startBackend } from '../server'

/** vi.waitFor's own limit (1 s) is a speed: this one only stops a hang, as the test's own limit would. */
const WAIT = { timeout: 20_000, interval: 20 }

const SECRET = 'whsec_test_connect_stand_in'
const verifier = new Stripe('sk_test_unused')

type Received = { event: Stripe.Event; signature: string }

/** Waits for the condition however long a busy machine takes (the test's own limit stops a hang). */
const until = async (check: () => boolean) => {
  while (!check()) await new Promise((r) => setTimeout(r, 10))
}

const servers: http.Server[] = []
const closeAll = async () => {
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise((resolve) => {
          s.closeAllConnections()
          s.close(resolve)
        }),
    ),
  )
}

async function listen(server: http.Server): Promise<string> {
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** A webhook that answers with the given statuses in turn (then 200), refusing any event whose signature fails. */
async function webhook(statuses: number[] = []) {
  const received: Received[] = []
  const url = await listen(
    http.createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        const signature = String(req.headers['stripe-signature'])
        try {
          received.push({
            event: verifier.webhooks.constructEvent(Buffer.concat(chunks), signature, SECRET),
            signature,
          })
        } catch {
          res.writeHead(400).end('bad signature')
          return
        }
        res.writeHead(statuses.shift() ?? 200).end('{}')
      })
    }),
  )
  return {
    url: `${url}/functions/v1/connect-webhook`,
    received,
    of: (type: string) => received.filter((r) => r.event.type === type).map((r) => r.event),
  }
}

/** The stand-in behind the real gateway (its /checkout route), as the backend mounts it. */
async function standIn(options: { webhookUrl: string; db?: Db; retryDelaysMs?: number[]; now?: () => number }) {
  const notHere: Handler = async () => ({ status: 404, body: { message: 'not in this test' } })
  const checkout: Handler = async (req) => ({ status: 200, body: { servedBy: 'checkout', path: req.path } })
  // The handler needs the bound URL, the server needs the handler: it is mounted once made, before any request.
  const mounted: { connect?: Handler } = {}
  const gateway = createGateway({
    routes: () => ({
      auth: notHere,
      rest: notHere,
      functions: notHere,
      checkout: withConnect(checkout, mounted.connect!),
    }),
  })
  const apiUrl = await listen(http.createServer(gateway))
  const connect = createConnectHandler({ apiUrl, webhookSecret: SECRET, log: () => {}, ...options })
  mounted.connect = connect
  return { apiUrl, handler: connect, stripe: stripeAt(apiUrl) }
}

/** The stripe package pointed at a backend, exactly as the edge functions' local client is. */
function stripeAt(apiUrl: string, key = 'sk_test_local_checkout') {
  const api = new URL(apiUrl)
  const localFetch: typeof fetch = (input, init) => {
    const url = new URL(String(input))
    url.pathname = `/checkout${url.pathname}`
    return fetch(url, init)
  }
  return new Stripe(key, {
    host: api.hostname,
    port: api.port,
    protocol: 'http',
    httpClient: Stripe.createFetchHttpClient(localFetch),
    maxNetworkRetries: 0,
    telemetry: false,
  })
}

const RETURN_URL = 'http://127.0.0.1:5173/dashboard/influencer/payouts?onboarding=return'
const REFRESH_URL = 'http://127.0.0.1:5173/dashboard/influencer/payouts?onboarding=refresh'

const newAccount = (stripe: Stripe, publisherId = '00000000-0000-4000-a000-000000000003') =>
  stripe.accounts.create({
    type: 'express',
    country: 'US',
    email: 'publisher@growletter.test',
    capabilities: { transfers: { requested: true } },
    metadata: { publisher_id: publisherId },
  })

const newLink = (stripe: Stripe, account: string) =>
  stripe.accountLinks.create({ account, refresh_url: REFRESH_URL, return_url: RETURN_URL, type: 'account_onboarding' })

/** A browser on the onboarding page: opens the link (keeping its cookie) and presses a button. */
async function browser(linkUrl: string) {
  const opened = await fetch(linkUrl, { redirect: 'manual' })
  const cookie = opened.headers.get('set-cookie')?.split(';')[0] ?? ''
  return {
    opened,
    html: opened.status === 200 ? await opened.text() : '',
    press: (button: 'finish' | 'reject', withCookie = true) =>
      fetch(`${linkUrl}/${button}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(withCookie ? { cookie } : {}) },
        body: '',
      }),
    reload: () => fetch(linkUrl, { redirect: 'manual', headers: { cookie } }),
  }
}

async function caught(promise: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  try {
    await promise
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError) return error
    throw error
  }
  throw new Error('expected the request to fail')
}

describe('local Stripe Connect stand-in', () => {
  afterEach(closeAll)
  let close: (() => Promise<void>) | undefined
  afterEach(async () => {
    await close?.()
    close = undefined
  })

  it('makes Express accounts with their onboarding ahead, retrieves them, and refuses what it cannot make', async () => {
    const hook = await webhook()
    const { stripe, handler, apiUrl } = await standIn({ webhookUrl: hook.url })
    close = handler.close
    const account = await newAccount(stripe)
    expect(account).toMatchObject({
      object: 'account',
      type: 'express',
      country: 'US',
      email: 'publisher@growletter.test',
      charges_enabled: false,
      payouts_enabled: false,
      details_submitted: false,
      capabilities: { transfers: 'inactive' },
      metadata: { publisher_id: '00000000-0000-4000-a000-000000000003' },
      requirements: { disabled_reason: 'requirements.past_due' },
    })
    expect(account.id).toMatch(/^acct_[A-Za-z0-9]+$/)
    expect(account.requirements?.currently_due).toEqual(
      expect.arrayContaining(['external_account', 'tos_acceptance.date']),
    )
    expect(await stripe.accounts.retrieve(account.id)).toEqual(account)

    const unknown = await caught(stripe.accounts.retrieve('acct_doesnotexist'))
    expect(unknown).toMatchObject({ type: 'StripeInvalidRequestError', statusCode: 404, code: 'resource_missing' })
    const standard = await caught(stripe.accounts.create({ type: 'standard' }))
    expect(standard).toMatchObject({ type: 'StripeInvalidRequestError', param: 'type' })
    expect(standard.message).toMatch(/Express accounts only/)
    const liveKey = await caught(stripeAt(apiUrl, 'sk_live_nope').accounts.create({ type: 'express' }))
    expect(liveKey).toMatchObject({ type: 'StripeAuthenticationError', statusCode: 401 })
    // Making an account is not an account change: no event.
    expect(hook.received).toEqual([])
  })

  it('makes a short-lived onboarding link to its page, and refuses links Stripe refuses', async () => {
    const hook = await webhook()
    const { stripe, handler, apiUrl } = await standIn({ webhookUrl: hook.url })
    close = handler.close
    const account = await newAccount(stripe)
    const link = await newLink(stripe, account.id)
    expect(link).toMatchObject({ object: 'account_link' })
    expect(link.url).toMatch(new RegExp(`^${apiUrl}/checkout/connect/${account.id}/[A-Za-z0-9_-]+$`))
    expect(link.expires_at - link.created).toBe(300)
    const noReturn = await caught(
      stripe.accountLinks.create({ account: account.id, refresh_url: REFRESH_URL, type: 'account_onboarding' }),
    )
    expect(noReturn).toMatchObject({ code: 'parameter_missing', param: 'return_url' })
    expect(
      await caught(
        stripe.accountLinks.create({
          account: 'acct_nobody',
          refresh_url: REFRESH_URL,
          return_url: RETURN_URL,
          type: 'account_onboarding',
        }),
      ),
    ).toMatchObject({ code: 'resource_missing', statusCode: 404 })
    expect(
      await caught(
        stripe.accountLinks.create({
          account: account.id,
          type: 'account_update',
          refresh_url: REFRESH_URL,
          return_url: RETURN_URL,
        }),
      ),
    ).toMatchObject({ param: 'type' })
  })

  it('"Finish onboarding" enables payouts, tells the webhook (signed) before sending the browser back, and uses the link up', async () => {
    const hook = await webhook()
    const { stripe, handler } = await standIn({ webhookUrl: hook.url })
    close = handler.close
    const account = await newAccount(stripe)
    const link = await newLink(stripe, account.id)
    const page = await browser(link.url)
    expect(page.opened.status).toBe(200)
    expect(page.html).toContain('Finish onboarding')
    expect(page.html).toContain('Simulate a rejected account')
    expect(page.html).toContain('<meta name="viewport"')
    // The same browser may reload the page while onboarding; another browser with the same link may not.
    expect((await page.reload()).status).toBe(200)
    const stranger = await fetch(link.url, { redirect: 'manual' })
    expect([stranger.status, stranger.headers.get('location')]).toEqual([303, REFRESH_URL])
    expect((await page.press('finish', false)).headers.get('location')).toBe(REFRESH_URL)
    expect(hook.received).toEqual([])

    const done = await page.press('finish')
    expect([done.status, done.headers.get('location')]).toEqual([303, RETURN_URL])
    // Already delivered when the browser is sent back: the return page finds the account ready.
    const events = hook.of('account.updated')
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({
      object: 'event',
      account: account.id,
      livemode: false,
      data: {
        object: {
          id: account.id,
          details_submitted: true,
          payouts_enabled: true,
          capabilities: { transfers: 'active' },
          requirements: { currently_due: [], past_due: [], disabled_reason: null },
        },
        previous_attributes: { details_submitted: false, payouts_enabled: false },
      },
    })
    expect(hook.received[0]!.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}/)
    expect(await stripe.accounts.retrieve(account.id)).toMatchObject({ payouts_enabled: true, details_submitted: true })

    // Used: the link now leads to refresh_url, and pressing again changes nothing.
    expect((await page.reload()).headers.get('location')).toBe(REFRESH_URL)
    expect((await page.press('reject')).headers.get('location')).toBe(REFRESH_URL)
    expect(await stripe.accounts.retrieve(account.id)).toMatchObject({ payouts_enabled: true })
    expect(hook.received).toHaveLength(1)
  })

  it('"Simulate a rejected account" disables the account (rejected.other), and a transfer to it fails with Stripe\'s error and no event', async () => {
    const hook = await webhook()
    const { stripe, handler } = await standIn({ webhookUrl: hook.url })
    close = handler.close
    const account = await newAccount(stripe)
    const page = await browser((await newLink(stripe, account.id)).url)
    const done = await page.press('reject')
    expect([done.status, done.headers.get('location')]).toEqual([303, RETURN_URL])
    expect(hook.of('account.updated')).toMatchObject([
      {
        account: account.id,
        data: {
          object: {
            payouts_enabled: false,
            charges_enabled: false,
            capabilities: { transfers: 'inactive' },
            requirements: { disabled_reason: 'rejected.other' },
          },
        },
      },
    ])

    const refused = await caught(
      stripe.transfers.create(
        { amount: 5000, currency: 'usd', destination: account.id },
        { idempotencyKey: 'payout-rejected' },
      ),
    )
    expect(refused).toMatchObject({
      type: 'StripeInvalidRequestError',
      statusCode: 400,
      code: 'insufficient_capabilities_for_transfer',
      param: 'destination',
    })
    expect(refused.message).toMatch(
      /destination account needs to have at least one of the following capabilities enabled: transfers/,
    )
    // An account that never finished onboarding cannot receive one either.
    const fresh = await newAccount(stripe)
    expect(
      await caught(stripe.transfers.create({ amount: 5000, currency: 'usd', destination: fresh.id })),
    ).toMatchObject({
      code: 'insufficient_capabilities_for_transfer',
    })
    expect(hook.of('transfer.created')).toEqual([])
    // A rejected account stays rejected: a new link cannot finish it.
    const again = await browser((await newLink(stripe, account.id)).url)
    expect(again.html).toContain('Rejected')
    await again.press('finish')
    expect(await stripe.accounts.retrieve(account.id)).toMatchObject({
      payouts_enabled: false,
      requirements: { disabled_reason: 'rejected.other' },
    })
  })

  it('sends an expired link to refresh_url', async () => {
    let clock = Date.parse('2026-11-25T12:00:00Z')
    const hook = await webhook()
    const { stripe, handler } = await standIn({ webhookUrl: hook.url, now: () => clock })
    close = handler.close
    const account = await newAccount(stripe)
    const link = await newLink(stripe, account.id)
    clock += 299_000
    const fresh = await newLink(stripe, account.id)
    clock += 2_000 // the first link is 301 s old, the second 2 s
    const expired = await fetch(link.url, { redirect: 'manual' })
    expect([expired.status, expired.headers.get('location')]).toEqual([303, REFRESH_URL])
    expect((await fetch(fresh.url, { redirect: 'manual' })).status).toBe(200)
  })

  it('transfers once per Idempotency-Key (concurrent retries included), refuses a reused key with other params, and reports each transfer once', async () => {
    const hook = await webhook()
    const { stripe, handler, apiUrl } = await standIn({ webhookUrl: hook.url })
    close = handler.close
    const account = await newAccount(stripe)
    await (await browser((await newLink(stripe, account.id)).url)).press('finish')

    const params = { amount: 5000, currency: 'usd', destination: account.id, metadata: { payout_id: 'payout-1' } }
    const [first, concurrent] = await Promise.all([
      stripe.transfers.create(params, { idempotencyKey: 'payout-1' }),
      stripe.transfers.create(params, { idempotencyKey: 'payout-1' }),
    ])
    expect(first).toMatchObject({
      object: 'transfer',
      amount: 5000,
      currency: 'usd',
      destination: account.id,
      metadata: { payout_id: 'payout-1' },
      reversed: false,
    })
    expect(first.id).toMatch(/^tr_[A-Za-z0-9]+$/)
    expect(concurrent.id).toBe(first.id)
    const retried = await stripe.transfers.create(params, { idempotencyKey: 'payout-1' })
    expect(retried.id).toBe(first.id)
    // Stripe marks an answer given again: the same request sent by hand, in another parameter order.
    const replay = await fetch(`${apiUrl}/checkout/v1/transfers`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer sk_test_by_hand',
        'idempotency-key': 'payout-1',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        'metadata[payout_id]': 'payout-1',
        destination: account.id,
        currency: 'usd',
        amount: '5000',
      }),
    })
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    expect(((await replay.json()) as { id: string }).id).toBe(first.id)
    expect(
      await caught(stripe.transfers.create({ ...params, amount: 9999 }, { idempotencyKey: 'payout-1' })),
    ).toMatchObject({
      type: 'StripeIdempotencyError',
    })
    const second = await stripe.transfers.create({ ...params, amount: 2500 }, { idempotencyKey: 'payout-2' })
    expect(second.id).not.toBe(first.id)
    expect(await stripe.transfers.retrieve(first.id)).toEqual(expect.objectContaining({ id: first.id, amount: 5000 }))
    expect(await caught(stripe.transfers.retrieve('tr_nothing'))).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    })

    await until(() => hook.of('transfer.created').length >= 2)
    await vi.waitFor(
      () =>
        expect(
          hook
            .of('transfer.created')
            .map((e) => (e.data.object as Stripe.Transfer).id)
            .sort(),
        ).toEqual([first.id, second.id].sort()),
      WAIT,
    )
    const created = hook.of('transfer.created').find((e) => (e.data.object as Stripe.Transfer).id === first.id)
    // A platform event (no `account`), naming the request that made it, as Stripe's do.
    expect(created).not.toHaveProperty('account')
    expect(created?.request).toMatchObject({ idempotency_key: 'payout-1' })

    expect(
      await caught(stripe.transfers.create({ amount: 0, currency: 'usd', destination: account.id })),
    ).toMatchObject({ param: 'amount' })
    expect(
      await caught(stripe.transfers.create({ amount: 100, currency: 'eur', destination: account.id })),
    ).toMatchObject({ param: 'currency' })
    expect(
      await caught(stripe.transfers.create({ amount: 100, currency: 'usd', destination: 'acct_nobody' })),
    ).toMatchObject({ code: 'resource_missing', param: 'destination' })
  })

  it('lists transfers as Stripe does: newest first, by destination, a page at a time (starting_after, ending_before)', async () => {
    const hook = await webhook()
    const { stripe, handler, apiUrl } = await standIn({ webhookUrl: hook.url })
    close = handler.close
    const onboarded = async () => {
      const account = await newAccount(stripe)
      await (await browser((await newLink(stripe, account.id)).url)).press('finish')
      return account.id
    }
    const [a, b] = [await onboarded(), await onboarded()]
    const made: string[] = []
    for (let i = 1; i <= 5; i++)
      made.push((await stripe.transfers.create({ amount: i * 100, currency: 'usd', destination: a })).id)
    const other = await stripe.transfers.create({ amount: 999, currency: 'usd', destination: b })
    const newestFirst = [...made].reverse()

    const page = await stripe.transfers.list({ destination: a, limit: 2 })
    expect(page).toMatchObject({ object: 'list', url: '/v1/transfers', has_more: true })
    expect(page.data.map((t) => t.id)).toEqual(newestFirst.slice(0, 2))
    const next = await stripe.transfers.list({ destination: a, limit: 2, starting_after: page.data[1]!.id })
    expect(next.data.map((t) => t.id)).toEqual(newestFirst.slice(2, 4))
    const back = await stripe.transfers.list({ destination: a, limit: 2, ending_before: next.data[0]!.id })
    expect(back.data.map((t) => t.id)).toEqual(newestFirst.slice(0, 2))
    // The package's auto-pagination follows starting_after to the end; without a destination, every transfer.
    const all: string[] = []
    for await (const t of stripe.transfers.list({ destination: a, limit: 2 })) all.push(t.id)
    expect(all).toEqual(newestFirst)
    expect((await stripe.transfers.list({ destination: b })).data.map((t) => t.id)).toEqual([other.id])
    expect((await stripe.transfers.list({ limit: 100 })).data.map((t) => t.id)).toEqual([other.id, ...newestFirst])
    expect((await stripe.transfers.list()).data).toHaveLength(6)

    expect(await caught(stripe.transfers.list({ limit: 101 }))).toMatchObject({ statusCode: 400, param: 'limit' })
    expect(await caught(stripe.transfers.list({ starting_after: 'tr_nothing' }))).toMatchObject({
      statusCode: 400,
      code: 'resource_missing',
      param: 'starting_after',
    })
    const unknown = await fetch(`${apiUrl}/checkout/v1/transfers?colour=red`, {
      headers: { authorization: 'Bearer sk_test_local_checkout' },
    })
    expect([unknown.status, ((await unknown.json()) as { error: { param: string } }).error.param]).toEqual([
      400,
      'colour',
    ])
  })

  it('reverses a transfer in part, then the rest, reporting each with transfer.reversed (signed); never past what remains', async () => {
    const hook = await webhook()
    const { stripe, handler } = await standIn({ webhookUrl: hook.url })
    close = handler.close
    const account = await newAccount(stripe)
    await (await browser((await newLink(stripe, account.id)).url)).press('finish')
    const transfer = await stripe.transfers.create(
      { amount: 6000, currency: 'usd', destination: account.id, metadata: { payout_id: 'payout-r' } },
      { idempotencyKey: 'payout-r' },
    )

    const part = await stripe.transfers.createReversal(transfer.id, { amount: 2000 }, { idempotencyKey: 'rev-1' })
    expect(part).toMatchObject({ object: 'transfer_reversal', amount: 2000, currency: 'usd', transfer: transfer.id })
    expect(part.id).toMatch(/^trr_[A-Za-z0-9]+$/)
    // The same request again is the same reversal, not a second one.
    expect((await stripe.transfers.createReversal(transfer.id, { amount: 2000 }, { idempotencyKey: 'rev-1' })).id).toBe(
      part.id,
    )
    expect(await stripe.transfers.retrieve(transfer.id)).toMatchObject({
      amount_reversed: 2000,
      reversed: false,
      reversals: { total_count: 1, data: [{ id: part.id, amount: 2000 }] },
    })
    expect(await caught(stripe.transfers.createReversal(transfer.id, { amount: 4001 }))).toMatchObject({
      statusCode: 400,
      param: 'amount',
    })
    // No amount: what remains.
    const rest = await stripe.transfers.createReversal(transfer.id)
    expect(rest.amount).toBe(4000)
    expect(await stripe.transfers.retrieve(transfer.id)).toMatchObject({ amount_reversed: 6000, reversed: true })
    const again = await caught(stripe.transfers.createReversal(transfer.id))
    expect(again).toMatchObject({ statusCode: 400, type: 'StripeInvalidRequestError' })
    expect(again.message).toBe(`The transfer ${transfer.id} is already fully reversed.`)
    expect(await caught(stripe.transfers.createReversal('tr_nothing'))).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    })

    // Each reversal is a transfer.reversed event about the transfer as it then was (a platform event), verified above.
    await vi.waitFor(() => expect(hook.of('transfer.reversed')).toHaveLength(2), WAIT)
    const reported = hook
      .of('transfer.reversed')
      .map((e) => e.data.object as Stripe.Transfer)
      .sort((x, y) => x.amount_reversed - y.amount_reversed)
    expect(reported).toMatchObject([
      { id: transfer.id, amount_reversed: 2000, reversed: false, metadata: { payout_id: 'payout-r' } },
      { id: transfer.id, amount_reversed: 6000, reversed: true },
    ])
    expect(hook.of('transfer.reversed')[0]).not.toHaveProperty('account')
  })

  it('retries an event the webhook did not accept, signing each attempt anew, until it answers 2xx', async () => {
    const hook = await webhook([500, 503])
    const { stripe, handler } = await standIn({ webhookUrl: hook.url, retryDelaysMs: [20, 20, 20] })
    close = handler.close
    const account = await newAccount(stripe)
    await (await browser((await newLink(stripe, account.id)).url)).press('finish')
    await until(() => hook.received.length >= 3)
    await new Promise((r) => setTimeout(r, 100))
    expect(hook.received).toHaveLength(3)
    expect(new Set(hook.received.map((r) => r.event.id)).size).toBe(1)
    expect(hook.received.every((r) => r.event.type === 'account.updated')).toBe(true)
  })

  // On PGlite and, when TEST_DATABASE_URL is set (npm test does so when PostgreSQL is installed), on PostgreSQL.
  describe.each(engines)('across a restart (kept in the backend database, schema local_checkout) on %s', (engine) => {
    let db: Db | undefined
    let database: Awaited<ReturnType<typeof postgresDatabase>> | undefined
    afterEach(async () => {
      await db?.close()
      await database?.drop()
      db = undefined
      database = undefined
    })

    it('still knows accounts, used links and transfers (and their idempotency keys), and delivers the events still owed', async () => {
      database = engine === 'postgres' ? await postgresDatabase() : undefined
      db = await openDatabase(database ? { databaseUrl: database.url } : { loadDataDir: await initdbSnapshot() })
      // The webhook is down while the first backend runs: both events are still owed when it stops.
      const hook = await webhook([500, 500])
      const first = await standIn({ webhookUrl: hook.url, db, retryDelaysMs: [60_000] })
      close = first.handler.close
      const account = await newAccount(first.stripe)
      const link = await newLink(first.stripe, account.id)
      await (await browser(link.url)).press('finish')
      const transfer = await first.stripe.transfers.create(
        { amount: 5000, currency: 'usd', destination: account.id },
        { idempotencyKey: 'payout-restart' },
      )
      await until(() => hook.received.length >= 2)
      // As a process that stops: nothing the first stand-in does lands after this.
      await first.handler.close()

      // The next start: the retries a minute away fell due while it was down, so they go at once.
      await db.exec(
        `update local_checkout.connect_deliveries set next_attempt_at = now() - interval '1 second' where state = 'pending'`,
      )
      const second = await standIn({ webhookUrl: hook.url, db, retryDelaysMs: [60_000] })
      close = second.handler.close
      await until(() => hook.received.length >= 4)
      expect(hook.received.map((r) => r.event.type).sort()).toEqual([
        'account.updated',
        'account.updated',
        'transfer.created',
        'transfer.created',
      ])
      expect(new Set(hook.received.map((r) => r.event.id)).size).toBe(2)
      expect(await second.stripe.accounts.retrieve(account.id)).toMatchObject({
        payouts_enabled: true,
        details_submitted: true,
      })
      expect(await second.stripe.transfers.retrieve(transfer.id)).toMatchObject({
        amount: 5000,
        destination: account.id,
      })
      expect(
        (
          await second.stripe.transfers.create(
            { amount: 5000, currency: 'usd', destination: account.id },
            { idempotencyKey: 'payout-restart' },
          )
        ).id,
      ).toBe(transfer.id)
      const reopened = await fetch(link.url.replace(first.apiUrl, second.apiUrl), { redirect: 'manual' })
      expect(reopened.headers.get('location')).toBe(REFRESH_URL)
      // Delivered: nothing is owed any more, so a third start sends nothing again.
      await vi.waitFor(async () => {
        const { rows } = await db!.query<{ state: string }>('select state from local_checkout.connect_deliveries')
        expect(rows).toEqual([{ state: 'delivered' }, { state: 'delivered' }])
      }, WAIT)
    })
  })
})

describe('the backend runs the Connect stand-in', () => {
  let backend: Awaited<ReturnType<typeof startBackend>>
  const override = 'whsec_from_the_environment_for_this_test'
  beforeAll(async () => {
    const before = process.env.STRIPE_CONNECT_WEBHOOK_SECRET
    process.env.STRIPE_CONNECT_WEBHOOK_SECRET = override
    try {
      backend = await startBackend({ port: 0, dataDir: null, seed: false, cron: false })
    } finally {
      if (before === undefined) delete process.env.STRIPE_CONNECT_WEBHOOK_SECRET
      else process.env.STRIPE_CONNECT_WEBHOOK_SECRET = before
    }
  })
  afterAll(async () => {
    await backend?.close()
  })

  it('uses the local secret unless the environment sets one, and writes it to .env.local', async () => {
    expect(connectWebhookSecret({})).toBe(LOCAL_STRIPE_CONNECT_WEBHOOK_SECRET)
    expect(LOCAL_STRIPE_CONNECT_WEBHOOK_SECRET).toMatch(/^whsec_/)
    expect(backend.stripeConnectWebhookSecret).toBe(override)
    const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'growletter-env-')), '.env.local')
    await writeEnvLocal(file, envFor(backend))
    expect(/^STRIPE_CONNECT_WEBHOOK_SECRET=(\S+)$/m.exec(await readFile(file, 'utf8'))?.[1]).toBe(override)
  })

  it('serves Connect under /checkout beside the test checkout, with no apikey', async () => {
    const stripe = stripeAt(backend.apiUrl)
    const account = await newAccount(stripe)
    const link = await newLink(stripe, account.id)
    expect(link.url.startsWith(`${backend.apiUrl}/checkout/connect/${account.id}/`)).toBe(true)
    expect((await fetch(link.url)).status).toBe(200)
    // The checkout's own API still answers there.
    expect(await caught(stripe.checkout.sessions.retrieve('cs_test_nothing'))).toMatchObject({
      statusCode: 404,
      message: "No such checkout.session: 'cs_test_nothing'",
    })
  })
})
