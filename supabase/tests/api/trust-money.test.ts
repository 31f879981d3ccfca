// Issue 21, the database's share, performed against the running backend through supabase-js and fetch as an
// attacker would, on this run's engine (PGlite, or PostgreSQL with TEST_DATABASE_URL), beside the honest path:
// * an advertiser PATCHes the bookkeeping and review columns of their own campaign (budget_reserved twice,
//   reservations_open, approved_at, created_at) or INSERTs them — column grants refuse it;
// * a stolen access token keeps moving money after its session ended (sign-out of other devices, a password
//   change, refresh-token reuse) — money and admin functions and wallet reads check auth.sessions;
// * a /contact flood from one address — limited in the database, per address and per inbox.
import type { SupabaseClient } from '@supabase/supabase-js'
import { Secret, TOTP } from 'otpauth'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { engine, nextIp, startTrustBackend, type TrustBackend } from '../../../embedded-backend/testing/trust-backend'

const DEMO_PASSWORD = 'growletter-demo'
const ADMIN_TOTP = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'
const CAMPAIGN = '20000000-0000-4000-a000-000000000001'
const ENDED = 'Your session has ended. Sign in again.'

let b: TrustBackend
beforeAll(async () => {
  b = await startTrustBackend({ seed: true })
})
afterAll(async () => {
  await b?.close()
})

async function signIn(email: string, password = DEMO_PASSWORD) {
  const client = b.client(nextIp())
  const { data, error } = await client.auth.signInWithPassword({ email, password })
  if (error) throw error
  return { client, session: data.session! }
}

let userCount = 0
async function newPublisher() {
  const email = `publisher-${++userCount}-${Date.now()}@example.test`
  const { error } = await b.admin().auth.admin.createUser({
    email,
    password: DEMO_PASSWORD,
    email_confirm: true,
    user_metadata: { user_type: 'publisher', full_name: 'Pat Stolen' },
  })
  if (error) throw error
  return email
}

describe(`mass assignment through the REST API (${engine})`, () => {
  it('attack: PATCH budget_reserved = 0 (twice), reservations_open, approved_at, created_at on my own campaign is refused', async () => {
    const { client } = await signIn('advertiser@growletter.test')
    const before = (
      await b.db.query(
        'select budget_reserved, reservations_open, approved_at, created_at from public.campaigns where id = $1',
        [CAMPAIGN],
      )
    ).rows[0]
    for (const patch of [
      { budget_reserved: 0 },
      { budget_reserved: 0 },
      { reservations_open: 0 },
      { approved_at: null },
      { created_at: '2000-01-01T00:00:00Z' },
      { budget_spent: 0 },
      { status: 'active' },
    ]) {
      const { error, status } = await client.from('campaigns').update(patch).eq('id', CAMPAIGN)
      expect(status, JSON.stringify(patch)).toBe(403)
      expect(error).toMatchObject({ code: '42501', message: 'permission denied for table campaigns' })
    }
    const after = (
      await b.db.query(
        'select budget_reserved, reservations_open, approved_at, created_at from public.campaigns where id = $1',
        [CAMPAIGN],
      )
    ).rows[0]
    expect(after).toEqual(before)
  })

  it('attack: INSERT a campaign that is already approved or has reserved money is refused', async () => {
    const { client, session } = await signIn('advertiser@growletter.test')
    for (const extra of [
      { approved_at: new Date().toISOString() },
      { budget_reserved: 5 },
      { reservations_open: 2 },
      { budget_spent: 1 },
    ]) {
      const { error } = await client.from('campaigns').insert({
        advertiser_id: session.user.id,
        name: 'Sneaky letter',
        budget_total: 10,
        status: 'pending_review',
        ...extra,
      })
      expect(error, JSON.stringify(extra)).toMatchObject({
        code: '42501',
        message: 'permission denied for table campaigns',
      })
    }
  })

  it('attack: TRUNCATE is no API role’s (and the source’s approval is not its publisher’s to clear)', async () => {
    const { client } = await signIn('publisher@growletter.test')
    const { data: mine } = await client.from('audience_sources').select('id').not('approved_at', 'is', null).limit(1)
    const { error } = await client.from('audience_sources').update({ approved_at: null }).eq('id', mine![0]!.id)
    expect(error).toMatchObject({ code: '42501', message: 'permission denied for table audience_sources' })
    const truncate = await b.db.query(
      `select has_table_privilege('authenticated', 'public.campaigns', 'TRUNCATE') as t`,
    )
    expect(truncate.rows).toEqual([{ t: false }])
  })

  it('honest: the budget form, the edit form and the submit form still save', async () => {
    const { client, session } = await signIn('advertiser@growletter.test')
    const { error: budget } = await client.from('campaigns').update({ budget_total: 5000 }).eq('id', CAMPAIGN)
    expect(budget).toBeNull()
    const { error: edit } = await client
      .from('campaigns')
      .update({
        name: 'The Frontend Brief',
        description: 'Weekly',
        image_url: null,
        website_url: 'https://frontend.example',
        category: 'technology',
      })
      .eq('id', CAMPAIGN)
    expect(edit).toBeNull()
    const { data, error } = await client
      .from('campaigns')
      .insert({
        advertiser_id: session.user.id,
        name: 'A new letter',
        description: null,
        image_url: null,
        category: 'technology',
        website_url: 'https://new.example',
        price_per_subscriber: 1,
        budget_total: 10,
        status: 'pending_review',
      })
      .select('id, name, status')
      .single()
    expect(error).toBeNull()
    expect(data).toMatchObject({ name: 'A new letter', status: 'pending_review' })
  })
})

describe(`a stolen access token after its session ended (${engine})`, () => {
  const payout = (client: SupabaseClient) => client.rpc('request_payout', { p_amount: 50 })

  it('attack: sign-out of other devices stops the stolen token at once for payouts, balances and wallet reads', async () => {
    const email = await newPublisher()
    const stolen = await signIn(email)
    const owner = await signIn(email)
    expect((await owner.client.rpc('ensure_wallet_exists', { p_user_id: owner.session.user.id })).error).toBeNull()
    expect((await payout(stolen.client)).error?.message).toBe(
      'You can only withdraw available earnings (0.00 credits available)',
    )
    expect((await stolen.client.from('wallets').select('balance')).data).toHaveLength(1)

    expect((await owner.client.auth.signOut({ scope: 'others' })).error).toBeNull()

    const refused = await payout(stolen.client)
    expect(refused.error).toMatchObject({ code: '42501', message: ENDED })
    expect((await stolen.client.rpc('publisher_balance')).error?.message).toBe(ENDED)
    expect((await stolen.client.from('wallets').select('balance')).data).toEqual([])
    expect((await stolen.client.from('wallet_transactions').select('id')).data).toEqual([])
    expect((await stolen.client.from('payout_requests').select('id')).data).toEqual([])
    // Honest: the device that stayed signed in goes on.
    expect((await owner.client.rpc('publisher_balance')).data).toEqual([
      { pending: 0, available: 0, requested: 0, paid: 0 },
    ])
    expect((await payout(owner.client)).error?.message).toBe(
      'You can only withdraw available earnings (0.00 credits available)',
    )
  })

  it('attack: a signed-out advertiser token cannot open a checkout (the function asks the auth server)', async () => {
    const stolen = await signIn('advertiser@growletter.test')
    const owner = await signIn('advertiser@growletter.test')
    expect((await owner.client.auth.signOut({ scope: 'others' })).error).toBeNull()
    const res = await b.fetch('/functions/v1/create-checkout-session', nextIp(), {
      method: 'POST',
      headers: { authorization: `Bearer ${stolen.session.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 25 }),
    })
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({ error: 'Sign in to add funds to your wallet.' })
    expect((await stolen.client.rpc('advertiser_balance')).error?.message).toBe(ENDED)
    expect((await owner.client.rpc('advertiser_balance')).error).toBeNull()
  })

  it('attack: a password change elsewhere stops the stolen token', async () => {
    const email = await newPublisher()
    const stolen = await signIn(email)
    const owner = await signIn(email)
    expect((await owner.client.auth.updateUser({ password: 'a-brand-new-passphrase-42' })).error).toBeNull()
    expect((await payout(stolen.client)).error?.message).toBe(ENDED)
    expect((await stolen.client.from('wallets').select('balance')).data).toEqual([])
    expect((await payout(owner.client)).error?.message).toBe(
      'You can only withdraw available earnings (0.00 credits available)',
    )
  })

  it('attack: refresh-token reuse revokes the session, and its access token with it', async () => {
    const email = await newPublisher()
    const { client, session } = await signIn(email)
    const refresh = (token: string) =>
      b.fetch('/auth/v1/token?grant_type=refresh_token', nextIp(), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refresh_token: token }),
      })
    expect((await refresh(session.refresh_token)).status).toBe(200)
    // The leaked token comes back after the reuse interval: GoTrue revokes the whole session.
    await b.db.query(
      "update auth.refresh_tokens set updated_at = now() - interval '1 minute' where revoked and user_id = $1",
      [session.user.id],
    )
    expect((await refresh(session.refresh_token)).status).toBe(400)
    expect((await payout(client)).error?.message).toBe(ENDED)
  })

  it('attack: an admin token whose session was signed out does no admin work; honest: a live aal2 session does', async () => {
    const admin = await signIn('admin@growletter.test')
    const { data: factors } = await admin.client.auth.mfa.listFactors()
    const factorId = factors!.totp[0]!.id
    const { error: mfaError } = await admin.client.auth.mfa.challengeAndVerify({
      factorId,
      code: new TOTP({ secret: Secret.fromBase32(ADMIN_TOTP) }).generate(),
    })
    expect(mfaError).toBeNull()
    const totals = await admin.client.rpc('admin_marketplace_totals')
    expect(totals.error).toBeNull()
    const stolenToken = (await admin.client.auth.getSession()).data.session!.access_token
    // The thief replays the copied token with plain fetch.
    const thief = (path: string, body?: unknown) =>
      b.fetch(path, nextIp(), {
        method: body === undefined ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${stolenToken}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    expect((await thief('/rest/v1/rpc/admin_marketplace_totals', {})).status).toBe(200)

    expect((await admin.client.auth.signOut({ scope: 'local' })).error).toBeNull()
    const refused = await thief('/rest/v1/rpc/admin_list_users', {})
    expect(refused.status).toBe(403)
    expect(await refused.json()).toMatchObject({ code: '42501', message: ENDED })
    const paid = await thief('/rest/v1/rpc/admin_mark_payout_paid', {
      p_payout_id: '30000000-0000-4000-a000-000000000002',
      p_reference: 'TR-9',
    })
    expect(await paid.json()).toMatchObject({ message: ENDED })
    expect(await (await thief('/rest/v1/moderation_events?select=id&limit=1')).json()).toEqual([])
  })
})

describe(`/contact through the REST API (${engine})`, () => {
  it('attack: a burst of messages from one address is cut off after 5 with a readable message; others are heard', async () => {
    const ip = nextIp()
    const send = (from: string, email: string) =>
      b.client(from).from('contact_messages').insert({ name: 'Kim', email, subject: 'Hello', message: 'A question' })
    const results = []
    for (let i = 0; i < 8; i++)
      results.push((await send(ip, `flood${i}-${Date.now()}@example.com`)).error?.message ?? 'ok')
    expect(results).toEqual([
      'ok',
      'ok',
      'ok',
      'ok',
      'ok',
      ...Array(3).fill(
        'You have sent several messages in a short time. Please wait a few minutes before sending another.',
      ),
    ])
    expect((await send(nextIp(), `someone-${Date.now()}@example.com`)).error).toBeNull()
  })
})
