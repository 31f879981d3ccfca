// Partner programs (issue 40, ARCHITECTURE "Wave 4 interfaces"): a newsletter open to every approved source or by
// approval; a publisher applies with its own source (apply_to_campaign), the advertiser approves — maybe at the
// source's own price —, declines or blocks (decide_partner); a subscriber through a blocked source, or a source not
// approved for a newsletter by approval, is not counted (`not_a_partner`); an approved partner's own price is what its
// new subscribers are charged, and the publisher earns it minus the 20% fee. The attacks of the issue are tried.
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { publisherEarning } from '../functions/_shared/rules/commission.ts'
import { errorOf, inSession, queryAs, service, testDb } from './helpers/db'
import { createUser } from './helpers/fixtures'
import { ageSubscription, confirm, createMarket, subscribe, walletOf, type Market } from './helpers/market'

const email = (tag: string) => `partner-${tag}-${randomUUID().slice(0, 8)}@example.com`

const apply = (m: Market, message: string | null = 'I write about this every week') =>
  queryAs<{ id: string }>(m.publisher.actor, 'select public.apply_to_campaign($1, $2, $3) as id', [
    m.campaignId,
    m.sourceId,
    message,
  ])
const decide = (m: Market, status: string, price: number | null = null) =>
  queryAs(m.advertiser.actor, 'select public.decide_partner($1, $2, $3, $4)', [m.campaignId, m.sourceId, status, price])

async function byApproval(m: Market) {
  const db = await testDb()
  await db.query(`update public.campaigns set partner_mode = 'approval' where id = $1`, [m.campaignId])
}

async function readerThrough(m: Market, tag: string) {
  const address = email(tag)
  const { tokens } = await subscribe(address, [m.campaignId], { sourceId: m.sourceId })
  await ageSubscription(address)
  const result = await confirm(tokens[0]!, address)
  const db = await testDb()
  const { rows } = await db.query<{ price: string | null; counted: boolean; not_counted_reason: string | null }>(
    'select price::text, counted, not_counted_reason from public.newsletter_subscriptions where email = $1',
    [address],
  )
  return { address, result, row: rows[0]! }
}

async function queued(template: string, userId: string) {
  const db = await testDb()
  const { rows } = await db.query<{ data: Record<string, unknown> }>(
    'select data from public.notification_queue where template = $1 and user_id = $2 order by created_at',
    [template, userId],
  )
  return rows.map((r) => r.data)
}

describe('the newsletter form', () => {
  it('lets the advertiser choose open or by approval, and nothing else', async () => {
    const m = await createMarket()
    expect(
      await errorOf(m.advertiser.actor, `update public.campaigns set partner_mode = 'approval' where id = $1`, [
        m.campaignId,
      ]),
    ).toBe('')
    expect(
      await errorOf(m.advertiser.actor, `update public.campaigns set partner_mode = 'friends' where id = $1`, [
        m.campaignId,
      ]),
    ).toMatch(/campaigns_partner_mode_check/)
    const db = await testDb()
    const { rows } = await db.query<{ partner_mode: string }>(
      'select partner_mode from public.campaigns where id = $1',
      [m.campaignId],
    )
    expect(rows[0]!.partner_mode).toBe('approval')
    // A new newsletter is open, as every newsletter was before.
    const other = await createMarket()
    const r = await db.query<{ partner_mode: string }>('select partner_mode from public.campaigns where id = $1', [
      other.campaignId,
    ])
    expect(r.rows[0]!.partner_mode).toBe('open')
  })
})

describe('applying', () => {
  it('records the application with its message and emails the advertiser', async () => {
    const m = await createMarket()
    await byApproval(m)
    const [{ id }] = (await apply(m)) as [{ id: string }]
    const rows = await queryAs<{ id: string; status: string; message: string; decided_at: string | null }>(
      m.advertiser.actor,
      'select id, status, message, decided_at from public.campaign_partners where campaign_id = $1',
      [m.campaignId],
    )
    expect(rows).toEqual([{ id, status: 'applied', message: 'I write about this every week', decided_at: null }])
    // The publisher reads its own application too.
    expect(await queryAs(m.publisher.actor, 'select 1 from public.campaign_partners where id = $1', [id])).toHaveLength(
      1,
    )
    expect(await queued('partner_applied', m.advertiser.id)).toEqual([
      expect.objectContaining({
        campaign_name: 'Test newsletter',
        source_name: 'Test source',
        message: 'I write about this every week',
      }),
    ])
    // Applying again while waiting replaces the words and emails no one twice.
    await apply(m, 'Updated words')
    expect(await queued('partner_applied', m.advertiser.id)).toHaveLength(1)
  })

  it('refuses someone else’s source, an open newsletter, a long message and a pending source', async () => {
    const m = await createMarket()
    await byApproval(m)
    const intruder = await createUser('publisher')
    expect(
      await errorOf(intruder.actor, 'select public.apply_to_campaign($1, $2, $3)', [m.campaignId, m.sourceId, 'hi']),
    ).toBe('You can only apply with your own sources')
    expect(
      await errorOf(m.advertiser.actor, 'select public.apply_to_campaign($1, $2)', [m.campaignId, m.sourceId]),
    ).toBe('Only influencers can apply to promote a newsletter')
    expect(
      await errorOf(m.publisher.actor, 'select public.apply_to_campaign($1, $2, $3)', [
        m.campaignId,
        m.sourceId,
        'x'.repeat(501),
      ]),
    ).toBe('Keep the message under 500 characters')
    const open = await createMarket()
    expect(
      await errorOf(open.publisher.actor, 'select public.apply_to_campaign($1, $2)', [open.campaignId, open.sourceId]),
    ).toBe('This newsletter is open to every approved source: share your link, no need to apply')
    const db = await testDb()
    await apply(m)
    await decide(m, 'approved')
    expect(
      await errorOf(m.publisher.actor, 'select public.apply_to_campaign($1, $2)', [m.campaignId, m.sourceId]),
    ).toBe('This source is already a partner of this newsletter')
    await db.query(`update public.campaigns set status = 'pending_review' where id = $1`, [m.campaignId])
    expect(
      await errorOf(m.publisher.actor, 'select public.apply_to_campaign($1, $2)', [m.campaignId, m.sourceId]),
    ).toBe('This newsletter is not taking partners')
    await db.query(`update public.audience_sources set status = 'pending_review' where id = $1`, [m.sourceId])
    expect(
      await errorOf(m.publisher.actor, 'select public.apply_to_campaign($1, $2)', [m.campaignId, m.sourceId]),
    ).toBe('Your source must be approved before it can apply')
    // A token whose session ended applies nothing.
    expect(
      await errorOf(inSession(m.publisher.actor, randomUUID()), 'select public.apply_to_campaign($1, $2)', [
        m.campaignId,
        m.sourceId,
      ]),
    ).toBe('Your session has ended. Sign in again.')
  })

  it('writes nothing through the table: no insert, update or delete by either side', async () => {
    const m = await createMarket()
    await byApproval(m)
    await apply(m)
    expect(
      await errorOf(m.publisher.actor, `update public.campaign_partners set status = 'approved' where source_id = $1`, [
        m.sourceId,
      ]),
    ).toMatch(/permission denied/)
    expect(
      await errorOf(
        m.publisher.actor,
        `insert into public.campaign_partners (campaign_id, source_id, status, decided_at) values ($1, $2, 'approved', now())`,
        [m.campaignId, m.sourceId],
      ),
    ).toMatch(/permission denied/)
    expect(
      await errorOf(m.advertiser.actor, 'delete from public.campaign_partners where campaign_id = $1', [m.campaignId]),
    ).toMatch(/permission denied/)
    // A stranger reads nothing of it.
    const stranger = await createUser('advertiser')
    expect(
      await queryAs(stranger.actor, 'select * from public.campaign_partners where campaign_id = $1', [m.campaignId]),
    ).toEqual([])
  })
})

describe('deciding', () => {
  it('is the newsletter’s advertiser’s alone: the publisher cannot approve itself, another advertiser cannot decide', async () => {
    const m = await createMarket()
    await byApproval(m)
    await apply(m)
    expect(
      await errorOf(m.publisher.actor, 'select public.decide_partner($1, $2, $3)', [
        m.campaignId,
        m.sourceId,
        'approved',
      ]),
    ).toBe('Only advertisers decide who promotes their newsletters')
    const other = await createUser('advertiser')
    expect(
      await errorOf(other.actor, 'select public.decide_partner($1, $2, $3, $4)', [
        m.campaignId,
        m.sourceId,
        'approved',
        9,
      ]),
    ).toBe('You can only decide the partners of your own newsletters')
    expect(
      await errorOf(inSession(m.advertiser.actor, randomUUID()), 'select public.decide_partner($1, $2, $3)', [
        m.campaignId,
        m.sourceId,
        'approved',
      ]),
    ).toBe('Your session has ended. Sign in again.')
    const db = await testDb()
    const { rows } = await db.query<{ status: string }>(
      'select status from public.campaign_partners where campaign_id = $1',
      [m.campaignId],
    )
    expect(rows).toEqual([{ status: 'applied' }])
  })

  it('keeps an own price inside the price range, with two decimals, and for an approved partner only', async () => {
    const m = await createMarket()
    const call = (status: string, price: number | null) =>
      errorOf(m.advertiser.actor, 'select public.decide_partner($1, $2, $3, $4)', [
        m.campaignId,
        m.sourceId,
        status,
        price,
      ])
    expect(await call('approved', 0.49)).toBe('Price per subscriber must be at least 0.50 credits')
    expect(await call('approved', 50.01)).toBe('Price per subscriber must be at most 50.00 credits')
    expect(await call('approved', 1.234)).toBe('Use at most two decimals')
    expect(await call('blocked', 5)).toBe('Only an approved partner can have its own price')
    expect(await call('maybe', null)).toBe('Choose approve, decline or block')
    expect(await call('declined', null)).toBe(
      'Only an application can be declined: block the source to stop it promoting Test newsletter',
    )
    expect(await call('approved', 50)).toBe('')
  })

  it('emails the publisher the decision with its price and earning', async () => {
    const m = await createMarket({ price: 10 })
    await byApproval(m)
    await apply(m)
    await decide(m, 'approved', 12.5)
    expect(await queued('partner_decided', m.publisher.id)).toEqual([
      expect.objectContaining({ status: 'approved', price: 12.5, earning: publisherEarning(12.5), own_price: true }),
    ])
    // The same decision again tells no one anything new.
    await decide(m, 'approved', 12.5)
    expect(await queued('partner_decided', m.publisher.id)).toHaveLength(1)
  })

  it('lets a declined publisher apply again only 7 days later, and a blocked one never', async () => {
    const m = await createMarket()
    await byApproval(m)
    await apply(m)
    await decide(m, 'declined')
    expect(
      await errorOf(m.publisher.actor, 'select public.apply_to_campaign($1, $2)', [m.campaignId, m.sourceId]),
    ).toBe('The advertiser declined this application: you can apply again 7 days after the decline')
    const db = await testDb()
    await db.query(
      `update public.campaign_partners set decided_at = now() - interval '8 days' where campaign_id = $1`,
      [m.campaignId],
    )
    expect(
      await errorOf(m.publisher.actor, 'select public.apply_to_campaign($1, $2)', [m.campaignId, m.sourceId]),
    ).toBe('')
    await decide(m, 'blocked')
    expect(
      await errorOf(m.publisher.actor, 'select public.apply_to_campaign($1, $2)', [m.campaignId, m.sourceId]),
    ).toBe('The advertiser does not work with this source on this newsletter')
  })
})

describe('who is paid (not_a_partner)', () => {
  let approval: Market
  beforeAll(async () => {
    approval = await createMarket({ deposit: 200, price: 10, budget: 100 })
    await byApproval(approval)
  })

  it('pays no reader through a source not approved for a newsletter by approval, and reserves nothing', async () => {
    const db = await testDb()
    const address = email('unapproved')
    await subscribe(address, [approval.campaignId], { sourceId: approval.sourceId })
    const pending = await db.query<{ reserved_amount: string }>(
      'select reserved_amount::text from public.newsletter_subscriptions where email = $1',
      [address],
    )
    expect(pending.rows[0]!.reserved_amount).toBe('0.00')
    const reader = await readerThrough(approval, 'unapproved-2')
    expect(reader.result).toMatchObject({ result: 'confirmed', counted: false, not_counted_reason: 'not_a_partner' })
    // The same words for both sides: the vocabulary row.
    const label = await db.query<{ label: string }>(
      `select label from public.not_counted_reasons where code = 'not_a_partner'`,
    )
    expect(label.rows[0]!.label).toBe('Not a partner of this newsletter')
    const readers = await queryAs<{ reason: string }>(
      approval.publisher.actor,
      'select reason from public.publisher_unpaid_readers()',
    )
    expect(readers.map((r) => r.reason)).toContain('not_a_partner')
  })

  it('charges an approved partner’s own price and pays its publisher that price minus the fee', async () => {
    await apply(approval)
    await decide(approval, 'approved', 12.5)
    const before = await walletOf(approval.publisher.id)
    const reader = await readerThrough(approval, 'approved')
    expect(reader.result).toMatchObject({ counted: true, not_counted_reason: null })
    expect(reader.row.price).toBe('12.50')
    const after = await walletOf(approval.publisher.id)
    expect(Number(after.pending_earnings) - Number(before.pending_earnings)).toBeCloseTo(publisherEarning(12.5), 2)
    expect(publisherEarning(12.5)).toBe(10)
    const db = await testDb()
    const hold = await db.query<{ amount: string }>(
      `select t.amount::text from public.wallet_transactions t join public.newsletter_subscriptions s on s.id = t.subscription_id
       where s.email = $1 and t.type = 'hold'`,
      [reader.address],
    )
    expect(hold.rows.map((r) => r.amount)).toEqual(['-12.50'])
    // What each side sees says the same price.
    const seen = await queryAs<{ price: string; earning: string; status: string; may_promote: boolean }>(
      approval.advertiser.actor,
      'select price::text, earning::text, status, may_promote from public.campaign_partner_sources($1)',
      [approval.campaignId],
    )
    expect(seen).toEqual([{ price: '12.50', earning: '10.00', status: 'approved', may_promote: true }])
    const mine = await queryAs<{ price: string; earning: string; own_price: boolean }>(
      approval.publisher.actor,
      'select price::text, earning::text, own_price from public.publisher_partnerships() where campaign_id = $1',
      [approval.campaignId],
    )
    expect(mine).toEqual([{ price: '12.50', earning: '10.00', own_price: true }])
  })

  it('keeps the price a pending subscriber was made at when the partner’s price changes', async () => {
    const address = email('locked')
    const { tokens } = await subscribe(address, [approval.campaignId], { sourceId: approval.sourceId })
    await decide(approval, 'approved', 20)
    await ageSubscription(address)
    const result = await confirm(tokens[0]!, address)
    expect(result.counted).toBe(true)
    const db = await testDb()
    const { rows } = await db.query<{ price: string }>(
      'select price::text from public.newsletter_subscriptions where email = $1',
      [address],
    )
    expect(rows[0]!.price).toBe('12.50')
    await decide(approval, 'approved', 12.5)
  })

  it('refuses a blocked source in either mode, even a reader already pending', async () => {
    const open = await createMarket({ deposit: 200, price: 10, budget: 100 })
    const address = email('blocked-pending')
    const { tokens } = await subscribe(address, [open.campaignId], { sourceId: open.sourceId })
    await decide(open, 'blocked')
    await ageSubscription(address)
    const result = await confirm(tokens[0]!, address)
    expect(result).toMatchObject({ counted: false, not_counted_reason: 'not_a_partner' })
    const next = await readerThrough(open, 'blocked-next')
    expect(next.result).toMatchObject({ counted: false, not_counted_reason: 'not_a_partner' })
    // Nothing stays reserved or held for them.
    const db = await testDb()
    const { rows } = await db.query<{ budget_reserved: string; budget_spent: string }>(
      'select budget_reserved::text, budget_spent::text from public.campaigns where id = $1',
      [open.campaignId],
    )
    expect(rows[0]).toEqual({ budget_reserved: '0.00', budget_spent: '0.00' })
    // Unblocking (approving) pays the next reader again.
    await decide(open, 'approved')
    expect((await readerThrough(open, 'unblocked')).result).toMatchObject({ counted: true })
  })

  it('decides a pending reader at confirmation when the newsletter turns to approval meanwhile', async () => {
    const open = await createMarket({ deposit: 200, price: 10, budget: 100 })
    const address = email('mode-switch')
    const { tokens } = await subscribe(address, [open.campaignId], { sourceId: open.sourceId })
    await byApproval(open)
    await ageSubscription(address)
    expect(await confirm(tokens[0]!, address)).toMatchObject({ counted: false, not_counted_reason: 'not_a_partner' })
    const db = await testDb()
    const { rows } = await db.query<{ budget_reserved: string }>(
      'select budget_reserved::text from public.campaigns where id = $1',
      [open.campaignId],
    )
    expect(rows[0]!.budget_reserved).toBe('0.00')
  })

  it('still pays a declined source of an open newsletter: declining only answers an application', async () => {
    const open = await createMarket({ deposit: 200, price: 10, budget: 100 })
    const db = await testDb()
    await db.query(
      `insert into public.campaign_partners (campaign_id, source_id, status, decided_at) values ($1, $2, 'declined', now())`,
      [open.campaignId, open.sourceId],
    )
    expect((await readerThrough(open, 'declined-open')).result).toMatchObject({ counted: true })
  })
})

describe('campaign_partner_sources', () => {
  it('shows the advertiser each source’s standing and quality, and no one else', async () => {
    const m = await createMarket()
    await byApproval(m)
    await apply(m, 'Hello')
    const db = await testDb()
    await db.query(
      'update public.audience_sources set quality_counted_clicks = 240, quality_confirmation_rate = 41.5 where id = $1',
      [m.sourceId],
    )
    const rows = await queryAs<Record<string, unknown>>(
      m.advertiser.actor,
      `select source_name, status, message, may_promote, counted_clicks, confirmation_rate::text, disputes, paid_subscribers,
         applied_at is not null as has_applied_at
       from public.campaign_partner_sources($1)`,
      [m.campaignId],
    )
    expect(rows).toEqual([
      {
        source_name: 'Test source',
        status: 'applied',
        message: 'Hello',
        may_promote: false,
        counted_clicks: 240,
        confirmation_rate: '41.5',
        disputes: 0,
        paid_subscribers: 0,
        has_applied_at: true,
      },
    ])
    const other = await createUser('advertiser')
    expect(await errorOf(other.actor, 'select * from public.campaign_partner_sources($1)', [m.campaignId])).toBe(
      'You can only see the partners of your own newsletters',
    )
    expect(await errorOf(service, 'select * from public.campaign_partner_sources($1)', [m.campaignId])).toBe('')
  })
})
