/**
 * Issue 37, "Suspension does not stop money": each attack performed the way the API runs it (role, JWT claims of one
 * request transaction), asserted to fail, beside the honest path. After an admin suspended a publisher and an
 * advertiser, the publisher's link still produced paid subscribers charged to the suspended advertiser, the newsletter
 * stayed listed, and tokens issued before the suspension still changed price and budget and created a campaign and a
 * source. One rule now (public.account_is_suspended) and every write, the paid-subscriber rule, the list, settlement and
 * payouts ask it; what was earned before waits for an admin.
 */
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  anon,
  atAal2,
  errorOf,
  inSession,
  queryAs,
  service,
  STORE_VAULT_SECRETS,
  testDb,
  type Actor,
} from './helpers/db'
import type { Queryable } from '../../embedded-backend/db/database'
import { actors, attempt, createUser, ledgerMismatches, payoutAccount, type NewUser } from './helpers/fixtures'
import { ageSubscription, confirm, createMarket, subscribe, walletOf, type Market } from './helpers/market'

const SUSPENDED = 'Your account is suspended. Contact us to appeal.'

// Webmail readers: the one-domain limit (domain-velocity.test.ts) stays out of the way.
const reader = (tag: string) => `${tag}-${randomUUID().slice(0, 8)}@gmail.com`

class Rollback extends Error {}

/** Runs `fn` as the database owner (the scheduler's rights) in a transaction that is always rolled back. */
async function rolledBack<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
  let out: T | undefined
  await (
    await testDb()
  )
    .transaction(async (tx) => {
      out = await fn(tx)
      throw new Rollback()
    })
    .catch((error: unknown) => {
      if (!(error instanceof Rollback)) throw error
    })
  return out as T
}

const suspend = (u: NewUser, on = true) =>
  queryAs(actors.admin, 'select public.admin_set_user_suspended($1, $2, $3)', [
    u.id,
    on,
    on ? 'Bought traffic' : 'Cleared after review',
  ])

/** The same user with a session the auth server issued and still holds (a token that is not stale). */
async function liveSessionOf(u: NewUser): Promise<Actor> {
  const sid = randomUUID()
  await (await testDb()).query('insert into auth.sessions (id, user_id) values ($1, $2)', [sid, u.id])
  return inSession(u.actor, sid)
}

async function subscriptionOf(email: string) {
  const rows = await (
    await testDb()
  ).query<{ id: string; counted: boolean; not_counted_reason: string | null; reserved_amount: string }>(
    'select id, counted, not_counted_reason, reserved_amount::text from public.newsletter_subscriptions where email = $1',
    [email],
  )
  return rows.rows[0]!
}

/** Subscribes through the market's source, then confirms a minute later as the reader would. */
async function confirmedThrough(m: Market, email = reader('r')) {
  const { tokens } = await subscribe(email, [m.campaignId], { sourceId: m.sourceId })
  await ageSubscription(email)
  return { email, ...(await confirm(tokens[0]!, email)) }
}

describe('attack: a suspended account keeps earning and paying', () => {
  it("stops a suspended publisher's link earning, pending readers included, and pays again once reinstated", async () => {
    const m = await createMarket({ deposit: 100, price: 10, budget: 100 })
    // A reader who subscribed before the suspension holds a reservation; one more comes after.
    const before = reader('before')
    const pending = await subscribe(before, [m.campaignId], { sourceId: m.sourceId })
    expect((await subscriptionOf(before)).reserved_amount).toBe('10.00')
    await suspend(m.publisher)

    const after = reader('after')
    const fresh = await subscribe(after, [m.campaignId], { sourceId: m.sourceId })
    // Nothing is promised for a reader the rule will not pay.
    expect((await subscriptionOf(after)).reserved_amount).toBe('0.00')
    await ageSubscription(before)
    await ageSubscription(after)
    for (const [email, token] of [
      [before, pending.tokens[0]!],
      [after, fresh.tokens[0]!],
    ] as const) {
      expect(await confirm(token, email)).toMatchObject({
        result: 'confirmed',
        counted: false,
        not_counted_reason: 'account_suspended',
      })
    }
    // The advertiser was charged nothing and the reservation came back.
    expect(await walletOf(m.advertiser.id)).toMatchObject({ available: '100.00', held: '0.00', reserved: '0.00' })
    expect(await walletOf(m.publisher.id)).toMatchObject({ pending_earnings: '0.00' })
    // The advertiser reads the reason in the one vocabulary's words.
    const listed = await queryAs<{ email: string; reason_label: string }>(
      m.advertiser.actor,
      'select email, reason_label from public.campaign_subscribers($1) order by email',
      [m.campaignId],
    )
    expect(listed.map((r) => r.reason_label)).toEqual(['Account suspended', 'Account suspended'])

    // Honest control: reinstated, the same link pays again.
    await suspend(m.publisher, false)
    expect(await confirmedThrough(m)).toMatchObject({ counted: true, not_counted_reason: null })
    expect(await walletOf(m.advertiser.id)).toMatchObject({ held: '10.00' })
    expect(await ledgerMismatches()).toEqual([])
  })

  it("stops a suspended advertiser's newsletter paying; the publisher sees why, in the same words, and in the webhook", async () => {
    const m = await createMarket({ deposit: 100, price: 10, budget: 100 })
    await queryAs(m.advertiser.actor, 'select public.create_webhook_endpoint($1)', ['https://hooks.example.com/s37'])
    await suspend(m.advertiser)

    const { email, ...confirmation } = await confirmedThrough(m)
    expect(confirmation).toMatchObject({ counted: false, not_counted_reason: 'account_suspended' })
    expect(await walletOf(m.advertiser.id)).toMatchObject({ available: '100.00', held: '0.00' })
    const unpaid = await queryAs<{ reason: string; lost_earning: string | null }>(
      m.publisher.actor,
      'select reason, lost_earning from public.publisher_unpaid_readers()',
    )
    expect(unpaid).toEqual([{ reason: 'account_suspended', lost_earning: null }])
    const figures = await queryAs<{ reason: string; label: string; total: string }>(
      m.publisher.actor,
      "select reason, label, total::text from public.not_counted_figures(null, $1) where kind = 'subscription'",
      [m.sourceId],
    )
    expect(figures).toEqual([{ reason: 'account_suspended', label: 'Account suspended', total: '1' }])
    const [delivery] = await queryAs<{ reason: string; charged: boolean }>(
      service,
      `select payload -> 'data' ->> 'reason' as reason, (payload -> 'data' ->> 'charged')::boolean as charged
       from public.webhook_deliveries d join public.newsletter_subscriptions s on s.id = d.subscription_id
       where s.email = $1`,
      [email],
    )
    expect(delivery).toEqual({ reason: 'account_suspended', charged: false })

    await suspend(m.advertiser, false)
    expect(await confirmedThrough(m)).toMatchObject({ counted: true })
  })

  it('words the reason for both sides in the vocabulary table, as the SPA does', async () => {
    const rows = await queryAs<{ label: string; applies_to: string[] }>(
      anon,
      "select label, applies_to from public.not_counted_reasons where code = 'account_suspended'",
    )
    expect(rows).toEqual([{ label: 'Account suspended', applies_to: ['subscription'] }])
    // src/lib/vocabulary.ts gives the SPA the same words (src/lib/vocabulary.test.ts pins them there).
  })
})

describe('attack: a suspended advertiser stays listed', () => {
  it('takes the newsletter off the public list, the offers and its own page, and puts it back when reinstated', async () => {
    const m = await createMarket()
    const other = await createUser('publisher')
    const listed = async () => ({
      visitor: (await queryAs(anon, 'select id from public.campaigns where id = $1', [m.campaignId])).length,
      signedIn: (await queryAs(other.actor, 'select id from public.campaigns where id = $1', [m.campaignId])).length,
      offered: (
        await queryAs(other.actor, 'select campaign_id from public.publisher_offers() where campaign_id = $1', [
          m.campaignId,
        ])
      ).length,
      page: (await queryAs<{ a: string }>(anon, 'select public.newsletter_availability($1) as a', [m.campaignId]))[0]!
        .a,
    })
    expect(await listed()).toEqual({ visitor: 1, signedIn: 1, offered: 1, page: 'open' })
    await suspend(m.advertiser)
    expect(await listed()).toEqual({ visitor: 0, signedIn: 0, offered: 0, page: 'closed' })
    // Admins still see it, to decide.
    expect(await queryAs(actors.admin, 'select id from public.campaigns where id = $1', [m.campaignId])).toHaveLength(1)
    await suspend(m.advertiser, false)
    expect(await listed()).toEqual({ visitor: 1, signedIn: 1, offered: 1, page: 'open' })
  })
})

describe('attack: a token issued before the suspension still writes', () => {
  type Write = [what: string, who: 'advertiser' | 'publisher', sql: string, params: (c: Context) => unknown[]]
  type Context = {
    m: Market
    draftId: string
    endpointId: string
    deliveryId: string
    subscriptionId: string
    disputeId: string
  }

  // Every write an owner can make through the API: table writes (PATCH, POST, DELETE) and every function that writes.
  const writes: Write[] = [
    [
      'PATCH price',
      'advertiser',
      'update public.campaigns set price_per_subscriber = 2 where id = $1',
      (c) => [c.m.campaignId],
    ],
    [
      'PATCH budget',
      'advertiser',
      'update public.campaigns set budget_total = 500 where id = $1',
      (c) => [c.m.campaignId],
    ],
    [
      'POST campaign',
      'advertiser',
      "insert into public.campaigns (advertiser_id, name, budget_total, status) values ($1, 'Another letter', 10, 'pending_review')",
      (c) => [c.m.advertiser.id],
    ],
    ['DELETE campaign', 'advertiser', 'delete from public.campaigns where id = $1', (c) => [c.draftId]],
    [
      'PATCH profile',
      'advertiser',
      "update public.profiles set full_name = 'Renamed' where id = $1",
      (c) => [c.m.advertiser.id],
    ],
    ['set_campaign_paused', 'advertiser', 'select public.set_campaign_paused($1, true)', (c) => [c.m.campaignId]],
    ['archive_campaign', 'advertiser', 'select public.archive_campaign($1)', (c) => [c.m.campaignId]],
    [
      'submit_revision',
      'advertiser',
      `select public.submit_revision('campaign', $1, '{"name": "Claim your prize"}')`,
      (c) => [c.m.campaignId],
    ],
    ['submit_campaign_for_review', 'advertiser', 'select public.submit_campaign_for_review($1)', (c) => [c.draftId]],
    [
      'create_webhook_endpoint',
      'advertiser',
      'select public.create_webhook_endpoint($1)',
      () => ['https://hooks.example.com/new'],
    ],
    [
      'PATCH webhook endpoint',
      'advertiser',
      'update public.webhook_endpoints set enabled = false where id = $1',
      (c) => [c.endpointId],
    ],
    [
      'DELETE webhook endpoint',
      'advertiser',
      'delete from public.webhook_endpoints where id = $1',
      (c) => [c.endpointId],
    ],
    ['rotate_webhook_secret', 'advertiser', 'select public.rotate_webhook_secret($1)', (c) => [c.endpointId]],
    ['send_test_webhook', 'advertiser', 'select public.send_test_webhook($1)', (c) => [c.endpointId]],
    ['resend_webhook_delivery', 'advertiser', 'select public.resend_webhook_delivery($1)', (c) => [c.deliveryId]],
    [
      'save_esp_connection',
      'advertiser',
      "select public.save_esp_connection($1, 'mailerlite', $2, '100000000000000001')",
      (c) => [c.m.campaignId, `ml-secret-${randomUUID()}`],
    ],
    ['disconnect_esp', 'advertiser', 'select public.disconnect_esp($1)', (c) => [c.m.campaignId]],
    ['retry_esp_delivery', 'advertiser', 'select public.retry_esp_delivery($1)', () => [randomUUID()]],
    [
      'open_dispute',
      'advertiser',
      'select public.open_dispute($1, $2)',
      (c) => ['These readers never opened a single email', [c.subscriptionId]],
    ],
    ['cancel_deposit', 'advertiser', 'select public.cancel_deposit($1)', () => ['cs_test_suspended']],
    ['ensure_wallet_exists', 'advertiser', 'select public.ensure_wallet_exists($1)', (c) => [c.m.advertiser.id]],
    [
      'POST source',
      'publisher',
      "insert into public.audience_sources (publisher_id, name, platform, status) values ($1, 'Another source', 'x', 'pending_review')",
      (c) => [c.m.publisher.id],
    ],
    [
      'PATCH source',
      'publisher',
      "update public.audience_sources set name = 'Free money' where id = $1",
      (c) => [c.m.sourceId],
    ],
    ['archive_audience_source', 'publisher', 'select public.archive_audience_source($1)', (c) => [c.m.sourceId]],
    ['request_payout', 'publisher', 'select public.request_payout(50)', () => []],
    ['set_auto_payout', 'publisher', 'select public.set_auto_payout(true)', () => []],
    [
      'answer_dispute',
      'publisher',
      'select public.answer_dispute($1, $2)',
      (c) => [c.disputeId, 'These readers came from my newsletter of 3 May, here is the post.'],
    ],
    [
      'PATCH publisher profile',
      'publisher',
      "update public.profiles set full_name = 'Renamed' where id = $1",
      (c) => [c.m.publisher.id],
    ],
  ]

  async function context(): Promise<Context> {
    const m = await createMarket({ deposit: 200, price: 10, budget: 100 })
    const db = await testDb()
    const [draft] = await queryAs<{ id: string }>(
      m.advertiser.actor,
      "insert into public.campaigns (advertiser_id, name, budget_total, status) values ($1, 'Draft letter', 10, 'draft') returning id",
      [m.advertiser.id],
    )
    const [endpoint] = await queryAs<{ id: string }>(
      m.advertiser.actor,
      'select id from public.create_webhook_endpoint($1)',
      ['https://hooks.example.com/before'],
    )
    const delivery = await db.query<{ id: string }>(
      `insert into public.webhook_deliveries (endpoint_id, advertiser_id, event_type, payload, status)
       values ($1, $2, 'webhook.test', '{}', 'failed') returning id`,
      [endpoint!.id, m.advertiser.id],
    )
    const { email } = await confirmedThrough(m)
    // A dispute the publisher may answer (about another subscriber than the one the advertiser could dispute).
    const disputed = await confirmedThrough(m)
    const [dispute] = await queryAs<{ id: string }>(m.advertiser.actor, 'select public.open_dispute($1, $2) as id', [
      'This reader confirmed from a known farm',
      [(await subscriptionOf(disputed.email)).id],
    ])
    await payoutAccount(m.publisher.id)
    await db.query('select public.credit_deposit($1, 80, $2)', [m.publisher.id, `earned-${randomUUID()}`])
    return {
      m,
      draftId: draft!.id,
      endpointId: endpoint!.id,
      deliveryId: delivery.rows[0]!.id,
      subscriptionId: (await subscriptionOf(email)).id,
      disputeId: dispute!.id,
    }
  }

  it('refuses every write of a suspended account with one sentence, stale token or live session, and none lands', async () => {
    const c = await context()
    // Acting once gives each actor the live session a token issued before the suspension carries.
    for (const who of [c.m.advertiser, c.m.publisher])
      expect(await queryAs(who.actor, 'select id from public.profiles where id = $1', [who.id])).toHaveLength(1)
    await suspend(c.m.advertiser)
    await suspend(c.m.publisher)
    const live = { advertiser: await liveSessionOf(c.m.advertiser), publisher: await liveSessionOf(c.m.publisher) }
    for (const [what, who, sql, params] of writes) {
      // The token issued before the suspension (its session ended with it) and one whose session the auth server
      // still holds: suspension wins over both, at aal1 and aal2.
      for (const actor of [c.m[who].actor, live[who], atAal2(live[who])])
        expect(await errorOf(actor, sql, params(c)), what).toBe(SUSPENDED)
    }
    const db = await testDb()
    const campaign = await db.query(
      'select price_per_subscriber::text as price, budget_total::text as budget, status, name from public.campaigns where id = $1',
      [c.m.campaignId],
    )
    expect(campaign.rows).toEqual([{ price: '10.00', budget: '100.00', status: 'active', name: 'Test newsletter' }])
    const counts = await db.query<Record<string, number>>(
      `select (select count(*) from public.campaigns where advertiser_id = $1)::int as campaigns,
         (select count(*) from public.audience_sources where publisher_id = $2)::int as sources,
         (select count(*) from public.content_revisions where author_id in ($1, $2))::int as revisions,
         (select count(*) from public.payout_requests where publisher_id = $2)::int as payouts,
         (select count(*) from public.disputes where advertiser_id = $1)::int as disputes,
         (select count(*) from public.disputes where advertiser_id = $1 and answered_at is not null)::int as answered`,
      [c.m.advertiser.id, c.m.publisher.id],
    )
    expect(counts.rows[0]).toEqual({ campaigns: 2, sources: 1, revisions: 0, payouts: 0, disputes: 1, answered: 0 })
    // Appeals still get through: the contact form is the way back.
    expect(
      await errorOf(
        c.m.advertiser.actor,
        "insert into public.contact_messages (name, email, subject, message) values ('Ad', $1, 'Appeal', 'Please review my suspension again.')",
        [c.m.advertiser.email],
      ),
    ).toBe('')
  })

  it('lets an active account make the same writes, and a reinstated one again', async () => {
    const c = await context()
    // Every write above, as the honest owner makes it (each in a transaction rolled back, so they do not interfere):
    // nothing refuses it for being suspended.
    for (const [what, who, sql, params] of writes) {
      const outcome = await attempt(atAal2(c.m[who].actor), sql, params(c))
      expect(outcome.error ?? '', what).not.toBe(SUSPENDED)
    }
    // The attack's writes succeed for real once the accounts are reinstated.
    await suspend(c.m.advertiser)
    await suspend(c.m.publisher)
    await suspend(c.m.advertiser, false)
    await suspend(c.m.publisher, false)
    const advertiser = await liveSessionOf(c.m.advertiser)
    const publisher = await liveSessionOf(c.m.publisher)
    for (const sql of [
      'update public.campaigns set price_per_subscriber = 2 where id = $1',
      'update public.campaigns set budget_total = 500 where id = $1',
    ])
      expect(await errorOf(advertiser, sql, [c.m.campaignId])).toBe('')
    expect(
      await queryAs(
        advertiser,
        "insert into public.campaigns (advertiser_id, name, budget_total, status) values ($1, 'Another letter', 10, 'pending_review') returning id",
        [c.m.advertiser.id],
      ),
    ).toHaveLength(1)
    expect(
      await queryAs(
        publisher,
        "insert into public.audience_sources (publisher_id, name, platform, status) values ($1, 'Another source', 'x', 'pending_review') returning id",
        [c.m.publisher.id],
      ),
    ).toHaveLength(1)
    expect(await queryAs(atAal2(publisher), 'select public.request_payout(50) is not null as ok')).toEqual([
      { ok: true },
    ])
  })

  it('says so in money and admin functions too, before anything about the session', async () => {
    const u = await createUser('advertiser')
    expect(await queryAs(u.actor, 'select available::text from public.advertiser_balance()')).toHaveLength(1)
    await suspend(u)
    expect(await errorOf(u.actor, 'select * from public.advertiser_balance()')).toBe(SUSPENDED)
    expect(await errorOf(await liveSessionOf(u), 'select public.claim_signup_bonus()')).toBe(SUSPENDED)
    // An admin suspended by another admin has no admin rights left.
    const admin = await createUser('admin')
    await queryAs(actors.admin, 'select public.admin_set_user_suspended($1, true, $2)', [admin.id, 'Left the company'])
    expect(await errorOf(admin.actor, 'select * from public.admin_list_users()')).toBe(SUSPENDED)
  })

  it('wins however the account was banned: a ban set by the auth server, with sessions left alive', async () => {
    const m = await createMarket()
    expect(
      await queryAs(m.advertiser.actor, 'select id from public.campaigns where id = $1', [m.campaignId]),
    ).toHaveLength(1)
    const db = await testDb()
    // As GoTrue's admin API bans (ban_duration): banned_until ahead, sessions untouched.
    await db.query("update auth.users set banned_until = now() + interval '1 day' where id = $1", [m.advertiser.id])
    expect(
      await errorOf(m.advertiser.actor, 'update public.campaigns set budget_total = 500 where id = $1', [m.campaignId]),
    ).toBe(SUSPENDED)
    expect((await confirmedThrough(m)).not_counted_reason).toBe('account_suspended')
    // A ban that has run out is no suspension.
    await db.query("update auth.users set banned_until = now() - interval '1 minute' where id = $1", [m.advertiser.id])
    expect(
      await errorOf(m.advertiser.actor, 'update public.campaigns set budget_total = 500 where id = $1', [m.campaignId]),
    ).toBe('')
    expect((await confirmedThrough(m)).counted).toBe(true)
  })
})

describe('what was earned before the suspension is held, not taken', () => {
  const settle = () =>
    queryAs<{ n: number }>(service, "select public.settle_matured_holds(now() + interval '8 days') as n")
  const held = (userId: string) =>
    queryAs<{ subscribers: number; on_hold: string; pending_earnings: string; past_screening: number }>(
      actors.admin,
      'select subscribers, on_hold::text, pending_earnings::text, past_screening from public.admin_held_money($1)',
      [userId],
    ).then((r) => r[0]!)
  const holdsOf = (email: string) =>
    queryAs<{ type: string; status: string }>(
      service,
      `select t.type, t.status from public.wallet_transactions t join public.newsletter_subscriptions s on s.id = t.subscription_id
       where s.email = $1 order by t.type, t.status`,
      [email],
    )

  it('settles neither side of a suspended publisher’s readers after screening, refunds nothing, and settles once reinstated', async () => {
    const m = await createMarket({ deposit: 100, price: 10, budget: 100 })
    const { email } = await confirmedThrough(m)
    await suspend(m.publisher)
    await settle()
    expect(await holdsOf(email)).toEqual([
      { type: 'earning', status: 'pending' },
      { type: 'hold', status: 'pending' },
    ])
    expect(await walletOf(m.advertiser.id)).toMatchObject({ balance: '100.00', held: '10.00' })
    expect(await held(m.publisher.id)).toEqual({
      subscribers: 1,
      on_hold: '10.00',
      pending_earnings: '8.00',
      past_screening: 0,
    })
    // Still disputable meanwhile: the hold is in screening for the advertiser.
    expect(
      await queryAs(m.advertiser.actor, 'select id from public.disputable_subscribers($1)', [m.sourceId]),
    ).toHaveLength(1)

    await suspend(m.publisher, false)
    await settle()
    expect(await holdsOf(email)).toEqual([
      { type: 'debit', status: 'completed' },
      { type: 'earning', status: 'completed' },
      { type: 'hold', status: 'canceled' },
    ])
    expect(await walletOf(m.advertiser.id)).toMatchObject({ balance: '90.00', held: '0.00' })
    expect(await walletOf(m.publisher.id)).toMatchObject({ balance: '8.00', pending_earnings: '0.00' })
    expect(await ledgerMismatches()).toEqual([])
  })

  it('holds a suspended advertiser’s charges too, so no publisher is paid from them before an admin decides', async () => {
    const m = await createMarket({ deposit: 100, price: 10, budget: 100 })
    const { email } = await confirmedThrough(m)
    await suspend(m.advertiser)
    await settle()
    expect(await holdsOf(email)).toEqual([
      { type: 'earning', status: 'pending' },
      { type: 'hold', status: 'pending' },
    ])
    expect(await held(m.advertiser.id)).toMatchObject({ subscribers: 1, on_hold: '10.00', pending_earnings: '8.00' })
  })

  it('lets the admin refund it instead, through the refund path, with the reason both sides read', async () => {
    const m = await createMarket({ deposit: 100, price: 10, budget: 100 })
    const first = await confirmedThrough(m)
    const second = await confirmedThrough(m)
    const refund = (reason: string | null, actor: Actor = actors.admin) =>
      errorOf(actor, 'select public.admin_refund_held_money($1, $2)', [m.publisher.id, reason])
    expect(await refund('Bought traffic')).toBe(
      "Only a suspended account's held money is refunded here: refund one subscriber through a dispute",
    )
    await suspend(m.publisher)
    expect(await refund('  ')).toBe('Give a reason')
    expect(await refund('x'.repeat(1001))).toBe('Keep the reason under 1,000 characters')
    expect(await refund('Bought traffic', m.advertiser.actor)).toBe('Only an admin can do this')
    const [r] = await queryAs<{ r: { refunded_subscribers: number; refunded: number } }>(
      actors.admin,
      'select public.admin_refund_held_money($1, $2) as r',
      [m.publisher.id, 'Bought traffic from a click farm'],
    )
    expect(r!.r).toEqual({ refunded_subscribers: 2, refunded: 20 })
    expect(await walletOf(m.advertiser.id)).toMatchObject({ available: '100.00', held: '0.00', balance: '100.00' })
    expect(await walletOf(m.publisher.id)).toMatchObject({ pending_earnings: '0.00' })
    for (const { email } of [first, second])
      expect(await subscriptionOf(email)).toMatchObject({ counted: false, not_counted_reason: 'refunded' })
    const reasons = await queryAs<{ reason: string }>(
      actors.admin,
      `select reason from public.moderation_events where subject_type = 'subscription' and new_status = 'rejected'
       and subject_id in (select id from public.newsletter_subscriptions where email in ($1, $2))`,
      [first.email, second.email],
    )
    expect(reasons.map((x) => x.reason)).toEqual([
      'Account suspended: Bought traffic from a click farm',
      'Account suspended: Bought traffic from a click farm',
    ])
    expect(await held(m.publisher.id)).toEqual({
      subscribers: 0,
      on_hold: '0.00',
      pending_earnings: '0.00',
      past_screening: 0,
    })
    expect(await ledgerMismatches()).toEqual([])
  })

  it('sends no payout a suspended publisher requested, and requests none automatically; reinstated, it is sent', async () => {
    const publisher = await createUser('publisher')
    await payoutAccount(publisher.id)
    const db = await testDb()
    await db.query('select public.credit_deposit($1, 120, $2)', [publisher.id, `earned-${randomUUID()}`])
    const [request] = await queryAs<{ r: { id: string } }>(
      atAal2(publisher.actor),
      'select public.request_payout(60) as r',
    )
    const payoutId = request!.r.id
    // The send-payouts claim, rolled back so other files' payouts stay as they are.
    const claimed = async () =>
      (await attempt(service, 'select id from public.claim_due_payouts(100)')).rows.map((x) => x.id)
    // The scheduled job with automatic payouts on and the request out of the way, rolled back: what it requests.
    const automatic = () =>
      rolledBack(async (tx) => {
        // Through Vault's functions, as an operator stores them: postgres may not insert into vault.secrets on hosted.
        await tx.exec(STORE_VAULT_SECRETS)
        await tx.query("update public.payout_requests set status = 'canceled' where id = $1", [payoutId])
        await tx.query('update public.payout_accounts set auto_payout = true where publisher_id = $1', [publisher.id])
        await tx.query('select private.dispatch_payouts()')
        const r = await tx.query<{ amount: string }>(
          "select amount::text from public.payout_requests where publisher_id = $1 and status = 'requested'",
          [publisher.id],
        )
        return r.rows
      })
    expect(await claimed()).toContain(payoutId)
    expect(await automatic()).toEqual([{ amount: '120.00' }])

    await suspend(publisher)
    expect(await claimed()).not.toContain(payoutId)
    expect(await automatic()).toEqual([])
    // Still requested: waiting, not cancelled, so nothing earned is taken.
    expect((await db.query('select status from public.payout_requests where id = $1', [payoutId])).rows).toEqual([
      { status: 'requested' },
    ])

    await suspend(publisher, false)
    expect(await claimed()).toContain(payoutId)
  })
})
