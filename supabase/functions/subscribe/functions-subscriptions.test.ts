// subscribe and verify-subscription end to end: supabase-js `functions.invoke` through the real gateway,
// the real Deno functions, the real migrations' database functions, and the dev mailbox's JSON API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startBackend, type Backend } from '../../../embedded-backend/server'
import * as e2e from '../../../embedded-backend/testing/functions-e2e-helpers'
import type { Message } from '../../../embedded-backend/testing/functions-e2e-helpers'

// Seeded campaigns (supabase/seed.sql): three active, one paused; one approved source.
const FRONTEND_BRIEF = '20000000-0000-4000-a000-000000000001'
const DESIGN_DISPATCH = '20000000-0000-4000-a000-000000000002'
const MORNING_STACK = '20000000-0000-4000-a000-000000000003'
const PAUSED_CAMPAIGN = '20000000-0000-4000-a000-000000000004'
const APPROVED_SOURCE = '10000000-0000-4000-a000-000000000016'

let backend: Backend
let ipCounter = 0

beforeAll(async () => {
  // Visitors get their own addresses through x-forwarded-for, trusted as a proxy's header would be.
  backend = await startBackend({ port: 0, dataDir: null, seed: true, clientIpHeader: 'x-forwarded-for' })
})
afterAll(async () => {
  await backend?.close()
})

const visitor = (ip?: string) => e2e.visitor(backend, ip)
const invoke = e2e.invoke
const uniqueEmail = e2e.uniqueEmail
const inbox = (email: string) => e2e.inbox(backend, email)
const waitForEmail = (email: string, count = 1) => e2e.waitForEmail(backend, email, count)

/** The confirmation links in an email, as a person would find them: token and email from each URL. */
function confirmationLinks(message: Message) {
  const urls = message.text.match(/https?:\/\/\S+\/confirm-subscription\?\S+/g) ?? []
  return urls.map((u) => {
    const url = new URL(u)
    return { url, token: url.searchParams.get('token')!, email: url.searchParams.get('email')! }
  })
}

describe('functions through the gateway', () => {
  it('answers an unknown function with 404 JSON', async () => {
    const res = await invoke(visitor(), 'no-such-function', {})
    expect(res).toEqual({ status: 404, body: { code: 'NOT_FOUND', message: 'Requested function was not found' } })
  })

  it('serves the subscription functions without an Authorization header (verify_jwt = false in config.toml)', async () => {
    const res = await fetch(`${backend.apiUrl}/functions/v1/verify-subscription`, {
      method: 'POST',
      headers: { apikey: backend.anonKey, 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.251' },
      body: JSON.stringify({ token: 'unknown', email: 'a@example.com' }),
    })
    expect(res.status).toBe(200)
    expect((await res.json()).error).toBe('This confirmation link is not valid.')
  })
})

describe('subscribe', () => {
  it('creates pending subscriptions and sends ONE email with one link per newsletter', async () => {
    const email = uniqueEmail('two')
    const res = await invoke(visitor(), 'subscribe', {
      email,
      campaignIds: [FRONTEND_BRIEF, DESIGN_DISPATCH],
      audienceSourceId: APPROVED_SOURCE,
    })
    expect(res.status).toBe(200)
    expect(res.body.success).toBe(true)
    expect(res.body).not.toHaveProperty('alreadyConfirmed')
    expect(res.body.pending).toEqual(
      expect.arrayContaining([
        { campaignId: FRONTEND_BRIEF, newsletterName: 'The Frontend Brief' },
        { campaignId: DESIGN_DISPATCH, newsletterName: 'Design Dispatch' },
      ]),
    )
    const [message, ...others] = await waitForEmail(email)
    expect(others).toHaveLength(0)
    expect(message.subject).toBe('Confirm your 2 newsletter subscriptions')
    expect(message.text).toContain('The Frontend Brief')
    expect(message.html).toContain('Design Dispatch')
    expect(message.html).toContain('Growletter')
    // First "Confirm all 2 newsletters" (both tokens, joined by a dot), then one link per newsletter.
    const [all, ...links] = confirmationLinks(message)
    expect(message.text).toContain(`Confirm all 2 newsletters: ${all!.url.href}`)
    expect(links).toHaveLength(2)
    expect(new Set(links.map((l) => l.token)).size).toBe(2)
    expect(all!.token.split('.').sort()).toEqual(links.map((l) => l.token).sort())
    expect(message.text).toContain('Confirm only this one')
    for (const link of links) {
      expect(link.url.origin + link.url.pathname).toBe('http://127.0.0.1:5173/confirm-subscription')
      expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(link.email).toBe(email)
    }
    // Only the hash is stored: the raw token appears nowhere in the database.
    const stored = await backend.db.query<{ token_hash: string; status: string; audience_source_id: string }>(
      'select token_hash, status, audience_source_id from public.newsletter_subscriptions where email = $1',
      [email],
    )
    expect(stored.rows).toHaveLength(2)
    for (const row of stored.rows) {
      expect(row.status).toBe('pending')
      expect(row.audience_source_id).toBe(APPROVED_SOURCE)
      expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/)
      expect(links.map((l) => l.token)).not.toContain(row.token_hash)
    }
  })

  it('answers CORS preflight', async () => {
    const res = await fetch(`${backend.apiUrl}/functions/v1/subscribe`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://127.0.0.1:5173', 'Access-Control-Request-Method': 'POST', apikey: backend.anonKey },
    })
    expect(res.status).toBeLessThan(300)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('access-control-allow-headers')).toContain('authorization')
  })

  it.each([
    ['bad JSON', 'not json', 'The request body must be valid JSON'],
    ['a bad email', { email: 'not-an-email', campaignIds: [FRONTEND_BRIEF] }, 'Please enter a valid email address'],
    [
      'a disposable domain',
      { email: 'someone@mailinator.com', campaignIds: [FRONTEND_BRIEF] },
      'Disposable email addresses are not accepted. Please use your regular email address.',
    ],
    ['no newsletters', { email: 'a@example.com', campaignIds: [] }, 'Choose at least one newsletter'],
    ['missing ids', { email: 'a@example.com' }, 'Choose at least one newsletter'],
    [
      'more than 10 newsletters',
      { email: 'a@example.com', campaignIds: Array.from({ length: 11 }, () => crypto.randomUUID()) },
      'You can subscribe to at most 10 newsletters at once',
    ],
    [
      'a non-uuid id',
      { email: 'a@example.com', campaignIds: ['1; drop table'] },
      'One of the chosen newsletters does not exist',
    ],
    [
      'a newsletter not accepting subscribers',
      { email: 'a@example.com', campaignIds: [FRONTEND_BRIEF, PAUSED_CAMPAIGN] },
      'This newsletter is not accepting subscribers',
    ],
  ])('refuses %s with 400 and a readable message', async (_label, body, message) => {
    const client = visitor()
    const res = typeof body === 'string' ? await rawPost('subscribe', body) : await invoke(client, 'subscribe', body)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ success: false, error: message })
  })

  it('carries the click token (clickToken) from another browser to the database; a damaged one is ignored', async () => {
    // The click in an in-app browser (one address); the subscription from Safari (another address, no storage).
    const response = await fetch(`${backend.apiUrl}/rest/v1/rpc/track_audience_source_click`, {
      method: 'POST',
      headers: {
        apikey: backend.anonKey,
        'content-type': 'application/json',
        'x-forwarded-for': '203.0.113.41',
        'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Instagram 350.0',
      },
      body: JSON.stringify({ unified_code: APPROVED_SOURCE, device_info: {} }),
    })
    const click: unknown = await response.json()
    // A counted click (else it carries no token): a failure here names the answer, reason included.
    expect({ status: response.status, click }).toMatchObject({ status: 200, click: { counted: true } })
    const token = (click as { click_token: string; click_id: string }).click_token
    expect(token).toMatch(/^[0-9a-f-]{36}\.\d+\.[0-9a-f]{32}$/)
    const email = uniqueEmail('token')
    const res = await invoke(visitor('203.0.113.42'), 'subscribe', {
      email,
      campaignIds: [MORNING_STACK],
      clickToken: token,
    })
    expect(res).toMatchObject({ status: 200, body: { success: true } })
    const stored = await backend.db.query(
      'select audience_source_id, click_id, click_token_used from public.newsletter_subscriptions where email = $1',
      [email],
    )
    expect(stored.rows).toEqual([
      {
        audience_source_id: APPROVED_SOURCE,
        click_id: (click as { click_id: string }).click_id,
        click_token_used: true,
      },
    ])
    // A damaged token does not stop the reader: they subscribe, unattributed.
    const other = uniqueEmail('damaged')
    const damaged = await invoke(visitor('203.0.113.43'), 'subscribe', {
      email: other,
      campaignIds: [MORNING_STACK],
      clickToken: `${token.slice(0, -2)}zz`,
    })
    expect(damaged.status).toBe(200)
    const unattributed = await backend.db.query(
      'select audience_source_id, click_id, click_token_used from public.newsletter_subscriptions where email = $1',
      [other],
    )
    expect(unattributed.rows).toEqual([{ audience_source_id: null, click_id: null, click_token_used: false }])
  })

  it('writes nothing when one newsletter of the request is refused', async () => {
    const email = uniqueEmail('atomic')
    const res = await invoke(visitor(), 'subscribe', { email, campaignIds: [MORNING_STACK, PAUSED_CAMPAIGN] })
    expect(res.status).toBe(400)
    const rows = await backend.db.query('select 1 from public.newsletter_subscriptions where email = $1', [email])
    expect(rows.rows).toHaveLength(0)
    expect(await inbox(email)).toHaveLength(0)
  })

  it('limits one inbox (+tags folded) to 3 requests an hour with a 429', async () => {
    const base = uniqueEmail('limited')
    const tagged = base.replace('@', '+news@')
    for (const address of [base, tagged, base]) {
      expect((await invoke(visitor(), 'subscribe', { email: address, campaignIds: [MORNING_STACK] })).status).toBe(200)
    }
    const res = await invoke(visitor(), 'subscribe', { email: tagged, campaignIds: [MORNING_STACK] })
    expect(res.status).toBe(429)
    expect(res.body.error).toBe('Too many confirmation emails for this address. Please try again later.')
  })

  it('attack: 15 Gmail spellings of one inbox (dots, +tags, googlemail.com) get 3 emails, then a 429', async () => {
    const local = `victim${Date.now().toString(36)}`
    const spellings = Array.from(
      { length: 15 },
      (_, i) =>
        [
          `${local.slice(0, (i % 5) + 1)}.${local.slice((i % 5) + 1)}@gmail.com`,
          `${local}+${i}@googlemail.com`,
          `${local.toUpperCase()}@gmail.com`,
        ][i % 3]!,
    )
    const statuses: number[] = []
    for (const email of spellings)
      statuses.push((await invoke(visitor(), 'subscribe', { email, campaignIds: [MORNING_STACK] })).status)
    expect(statuses).toEqual([200, 200, 200, ...Array(12).fill(429)])
    // Honest: another inbox is not affected.
    expect(
      (await invoke(visitor(), 'subscribe', { email: uniqueEmail('neighbour'), campaignIds: [MORNING_STACK] })).status,
    ).toBe(200)
  })

  it('limits one IP address with a 429 after 30 requests in 15 minutes', async () => {
    const client = visitor('192.0.2.250')
    for (let i = 0; i < 30; i++) {
      expect((await invoke(client, 'subscribe', { email: 'bad', campaignIds: [] })).status).toBe(400)
    }
    const res = await invoke(client, 'subscribe', { email: uniqueEmail('ip'), campaignIds: [MORNING_STACK] })
    expect(res.status).toBe(429)
    expect(res.body.error).toBe('Too many subscription requests. Please try again in a few minutes.')
  })
})

async function rawPost(name: string, body: string) {
  const res = await fetch(`${backend.apiUrl}/functions/v1/${name}`, {
    method: 'POST',
    headers: {
      apikey: backend.anonKey,
      authorization: `Bearer ${backend.anonKey}`,
      'content-type': 'application/json',
      'x-forwarded-for': `203.0.113.${++ipCounter % 250}`,
    },
    body,
  })
  return { status: res.status, body: await res.json() }
}

describe('verify-subscription', () => {
  async function subscribeAndGetLinks(campaignIds: string[]) {
    const email = uniqueEmail('confirm')
    const res = await invoke(visitor(), 'subscribe', { email, campaignIds, audienceSourceId: APPROVED_SOURCE })
    expect(res.status).toBe(200)
    const [message] = await waitForEmail(email)
    return { email, links: confirmationLinks(message) }
  }

  it('confirms every newsletter of the request with the one "confirm all" link', async () => {
    const { email, links } = await subscribeAndGetLinks([FRONTEND_BRIEF, DESIGN_DISPATCH])
    const [all] = links
    expect(all!.token.split('.')).toHaveLength(2)
    const res = await invoke(visitor(), 'verify-subscription', { token: all!.token, email: all!.email })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ success: true, alreadyConfirmed: false, expired: false })
    expect([...(res.body.newsletterIds as string[])].sort()).toEqual([FRONTEND_BRIEF, DESIGN_DISPATCH].sort())
    expect(String(res.body.newsletterName).split(', ').sort()).toEqual(['Design Dispatch', 'The Frontend Brief'])
    const rows = await backend.db.query<{ status: string }>(
      'select status from public.newsletter_subscriptions where email = $1',
      [email],
    )
    expect(rows.rows.map((r) => r.status)).toEqual(['confirmed', 'confirmed'])
    // A newsletter's own link, opened afterwards, says it was already confirmed.
    const again = await invoke(visitor(), 'verify-subscription', { token: links[1]!.token, email })
    expect(again.body).toMatchObject({ success: true, alreadyConfirmed: true })
  })

  it('confirms only the newsletter whose own link is opened; the other stays pending', async () => {
    const { email, links } = await subscribeAndGetLinks([FRONTEND_BRIEF, DESIGN_DISPATCH])
    const [, one] = links
    const res = await invoke(visitor(), 'verify-subscription', { token: one!.token, email })
    expect(res.body).toMatchObject({ success: true, newsletterIds: [expect.any(String)] })
    const rows = await backend.db.query<{ status: string }>(
      'select status from public.newsletter_subscriptions where email = $1 order by status',
      [email],
    )
    expect(rows.rows.map((r) => r.status)).toEqual(['confirmed', 'pending'])
  })

  it('confirms through the emailed link, then says already confirmed the second time', async () => {
    const { email, links } = await subscribeAndGetLinks([DESIGN_DISPATCH])
    const client = visitor()
    const first = await invoke(client, 'verify-subscription', { token: links[0].token, email: links[0].email })
    expect(first).toEqual({
      status: 200,
      body: {
        success: true,
        alreadyConfirmed: false,
        expired: false,
        newsletterName: 'Design Dispatch',
        newsletterId: DESIGN_DISPATCH,
        newsletterIds: [DESIGN_DISPATCH],
        error: null,
      },
    })
    const row = await backend.db.query<{ status: string; confirm_ip: string }>(
      'select status, confirm_ip from public.newsletter_subscriptions where email = $1',
      [email],
    )
    expect(row.rows[0]).toMatchObject({ status: 'confirmed' })
    const second = await invoke(client, 'verify-subscription', { token: links[0].token, email })
    expect(second.body).toEqual({
      success: true,
      alreadyConfirmed: true,
      expired: false,
      newsletterName: 'Design Dispatch',
      newsletterId: DESIGN_DISPATCH,
      newsletterIds: [DESIGN_DISPATCH],
      error: null,
    })
  })

  it('lists an already confirmed newsletter without a link in the next email, and answers as for anyone', async () => {
    const { email, links } = await subscribeAndGetLinks([FRONTEND_BRIEF])
    await invoke(visitor(), 'verify-subscription', { token: links[0].token, email })
    const again = await invoke(visitor(), 'subscribe', { email, campaignIds: [FRONTEND_BRIEF, MORNING_STACK] })
    expect(again.body).toEqual({
      success: true,
      pending: [
        { campaignId: FRONTEND_BRIEF, newsletterName: 'The Frontend Brief' },
        { campaignId: MORNING_STACK, newsletterName: 'Morning Stack' },
      ],
    })
    const [latest] = await waitForEmail(email, 2)
    expect(latest.subject).toBe('Confirm your subscription to Morning Stack')
    expect(latest.text).toContain('You are already subscribed to this newsletter.')
    expect(confirmationLinks(latest)).toHaveLength(1)
  })

  it('attack: the answer does not tell whether an address already subscribes; its owner gets an informational email', async () => {
    const { email: subscriber, links } = await subscribeAndGetLinks([MORNING_STACK])
    await invoke(visitor(), 'verify-subscription', { token: links[0].token, email: subscriber })
    const stranger = uniqueEmail('stranger')
    const probe = await invoke(visitor(), 'subscribe', { email: subscriber, campaignIds: [MORNING_STACK] })
    const control = await invoke(visitor(), 'subscribe', { email: stranger, campaignIds: [MORNING_STACK] })
    expect(probe).toEqual(control)
    expect(probe).toEqual({
      status: 200,
      body: { success: true, pending: [{ campaignId: MORNING_STACK, newsletterName: 'Morning Stack' }] },
    })
    // Each inbox gets an email: a confirmation for the stranger, a note for the subscriber.
    const [note] = await waitForEmail(subscriber, 2)
    expect(note.subject).toBe('You are already subscribed to Morning Stack')
    expect(note.text).toContain('There is nothing to confirm.')
    expect(confirmationLinks(note)).toHaveLength(0)
    const [confirmation] = await waitForEmail(stranger)
    expect(confirmation.subject).toBe('Confirm your subscription to Morning Stack')
  })

  it('reports an expired link as expired and does not confirm it', async () => {
    const { email, links } = await subscribeAndGetLinks([FRONTEND_BRIEF])
    await backend.db.query(
      "update public.newsletter_subscriptions set token_expires_at = now() - interval '1 minute' where email = $1",
      [email],
    )
    const res = await invoke(visitor(), 'verify-subscription', { token: links[0].token, email })
    expect(res.body).toEqual({
      success: false,
      alreadyConfirmed: false,
      expired: true,
      newsletterName: 'The Frontend Brief',
      newsletterId: null,
      newsletterIds: [],
      error: 'Your confirmation link has expired.',
    })
    const row = await backend.db.query<{ status: string }>(
      'select status from public.newsletter_subscriptions where email = $1',
      [email],
    )
    expect(row.rows[0].status).toBe('expired')
  })

  it('refuses a token with another email, and an unknown token', async () => {
    const { links } = await subscribeAndGetLinks([DESIGN_DISPATCH])
    const invalid = {
      success: false,
      alreadyConfirmed: false,
      expired: false,
      newsletterName: null,
      newsletterId: null,
      newsletterIds: [],
      error: 'This confirmation link is not valid.',
    }
    expect(
      (await invoke(visitor(), 'verify-subscription', { token: links[0].token, email: 'other@example.com' })).body,
    ).toEqual(invalid)
    expect(
      (await invoke(visitor(), 'verify-subscription', { token: 'x'.repeat(43), email: links[0].email })).body,
    ).toEqual(invalid)
  })

  it('answers 400 when the token or email is missing', async () => {
    const res = await invoke(visitor(), 'verify-subscription', { email: 'a@example.com' })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ success: false, error: 'Invalid confirmation link' })
  })

  it('answers GET with 405 and confirms nothing, as a mail scanner fetching the link would', async () => {
    const { email, links } = await subscribeAndGetLinks([MORNING_STACK])
    const query = new URLSearchParams({ token: links[0].token, email })
    const res = await fetch(`${backend.apiUrl}/functions/v1/verify-subscription?${query}`, {
      headers: { apikey: backend.anonKey, authorization: `Bearer ${backend.anonKey}` },
    })
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toContain('POST')
    const row = await backend.db.query<{ status: string }>(
      'select status from public.newsletter_subscriptions where email = $1',
      [email],
    )
    expect(row.rows[0].status).toBe('pending')
  })
})

describe('decline-subscription', () => {
  /** The email's links, as a person finds them: each newsletter's confirm and decline links share one token. */
  async function subscribeAndRead(campaignIds: string[]) {
    const email = uniqueEmail('decline')
    const res = await invoke(visitor(), 'subscribe', { email, campaignIds, audienceSourceId: APPROVED_SOURCE })
    expect(res.status).toBe(200)
    const [message] = await waitForEmail(email)
    const declines = (message.text.match(/https?:\/\/\S+\/decline-subscription\?\S+/g) ?? []).map((u) => new URL(u))
    return { email, message, confirms: confirmationLinks(message), declines }
  }
  const statuses = async (email: string) =>
    (
      await backend.db.query<{ status: string }>(
        'select status from public.newsletter_subscriptions where email = $1 order by status',
        [email],
      )
    ).rows.map((r) => r.status)

  it('puts a decline link beside each confirm link, with the same token, and one to decline them all', async () => {
    const { message, confirms, declines } = await subscribeAndRead([FRONTEND_BRIEF, DESIGN_DISPATCH])
    expect(message.text).toContain('Decline this newsletter: ')
    expect(message.text).toContain('Decline all 2 newsletters: ')
    expect(message.html).toContain('Decline this newsletter</a>')
    // Confirm all, then one per newsletter; decline: one per newsletter, then decline all.
    expect(declines.map((u) => u.searchParams.get('token'))).toEqual([
      confirms[1]!.token,
      confirms[2]!.token,
      confirms[0]!.token,
    ])
  })

  it('declines one newsletter of the request; the other stays pending; again answers the same', async () => {
    const { email, declines } = await subscribeAndRead([FRONTEND_BRIEF, DESIGN_DISPATCH])
    const token = declines[0]!.searchParams.get('token')!
    const first = await invoke(visitor(), 'decline-subscription', { token, email })
    expect(first.status).toBe(200)
    expect(first.body).toEqual({
      success: true,
      declined: [expect.stringMatching(/^(The Frontend Brief|Design Dispatch)$/)],
      alreadyConfirmed: [],
      error: null,
    })
    expect(await statuses(email)).toEqual(['declined', 'pending'])
    expect((await invoke(visitor(), 'decline-subscription', { token, email })).body).toEqual(first.body)
  })

  it('declines every newsletter with the decline-all link, and refuses once confirmed', async () => {
    const { email, confirms, declines } = await subscribeAndRead([FRONTEND_BRIEF, MORNING_STACK])
    await invoke(visitor(), 'verify-subscription', { token: confirms[1]!.token, email })
    const all = await invoke(visitor(), 'decline-subscription', {
      token: declines[2]!.searchParams.get('token'),
      email,
    })
    expect(all.body).toMatchObject({
      success: true,
      declined: [expect.any(String)],
      alreadyConfirmed: [expect.any(String)],
    })
    expect(await statuses(email)).toEqual(['confirmed', 'declined'])
  })

  it('answers an unknown token with the invalid sentence, a missing email with 400, and GET with 405', async () => {
    const invalid = await invoke(visitor(), 'decline-subscription', { token: 'x'.repeat(43), email: 'a@example.com' })
    expect(invalid).toEqual({
      status: 200,
      body: { success: false, declined: [], alreadyConfirmed: [], error: 'This link is not valid.' },
    })
    const missing = await invoke(visitor(), 'decline-subscription', { token: 'abc' })
    expect(missing.status).toBe(400)
    const { email, declines } = await subscribeAndRead([DESIGN_DISPATCH])
    const res = await fetch(`${backend.apiUrl}/functions/v1/decline-subscription?${declines[0]!.searchParams}`, {
      headers: { apikey: backend.anonKey, authorization: `Bearer ${backend.anonKey}` },
    })
    expect(res.status).toBe(405)
    expect(await statuses(email)).toEqual(['pending'])
  })
})
