// What a publisher chooses from (issue 23, point 5): publisher_offers lists every active newsletter with what the
// publisher earns per paid subscriber (the platform fee's one SQL statement, pinned here to the TypeScript rule),
// its funding and its confirmation rate; publisher_unpaid_readers lists the readers of the caller's sources that
// confirmed but were not paid or were refunded, with the reason — and never an email.
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { publisherEarning } from '../functions/_shared/rules/commission.ts'
import { anon, errorOf, queryAs, service, testDb } from './helpers/db'
import { ageSubscription, confirm, createMarket, subscribe, type Market } from './helpers/market'

type Offer = {
  campaign_id: string
  name: string
  category: string | null
  price: string
  earning: string
  funding_status: string
  subscribers_left: number
  confirmation_rate: string | null
  settled_subscriptions: number
}
type Reader = Record<string, unknown> & {
  subscription_id: string
  source_name: string
  campaign_name: string
  reason: string
  detail: string | null
  lost_earning: string | null
  total_count: number
}

let m: Market
let other: Market
const email = (tag: string) => `reader-${tag}-${randomUUID().slice(0, 8)}@example.com`

const offersOf = async (market: Market) =>
  queryAs<Offer>(market.publisher.actor, 'select * from public.publisher_offers()')
const offerOf = async (market: Market, campaignId = market.campaignId) =>
  (await offersOf(market)).find((o) => o.campaign_id === campaignId)

async function confirmedThroughSource(market: Market, tag: string, options: { click?: boolean } = {}) {
  const address = email(tag)
  const { tokens } = await subscribe(address, [market.campaignId], { sourceId: market.sourceId, ...options })
  await ageSubscription(address)
  const result = await confirm(tokens[0]!, address)
  return { address, result }
}

beforeAll(async () => {
  m = await createMarket({ deposit: 200, price: 10, budget: 100 })
  other = await createMarket()
  const db = await testDb()
  await db.query(`update public.campaigns set category = 'technology' where id = $1`, [m.campaignId])
})

describe('the platform fee', () => {
  it('is the same rule in SQL and in TypeScript', async () => {
    const prices = [0.5, 0.55, 0.57, 0.63, 1.03, 9.99, 10, 35, 49.99, 50]
    const db = await testDb()
    const { rows } = await db.query<{ e: string }>(
      'select private.publisher_earning(p)::text as e from unnest($1::numeric[]) with ordinality u(p, i) order by i',
      [prices],
    )
    expect(rows.map((r) => Number(r.e))).toEqual(prices.map(publisherEarning))
    expect(publisherEarning(35)).toBe(28)
  })
})

describe('publisher_offers', () => {
  it('lists an active newsletter with what the publisher earns, its category and its room', async () => {
    const offer = await offerOf(m)
    expect(offer).toMatchObject({
      name: 'Test newsletter',
      category: 'technology',
      price: '10.00',
      earning: '8.00',
      funding_status: 'funded',
      subscribers_left: 10,
      confirmation_rate: null,
    })
    // Every publisher sees every active newsletter, not only the ones their sources promoted.
    expect(await offerOf(other, m.campaignId)).toBeDefined()
  })

  it('counts a reservation against the room left, and lists a newsletter out of budget as such', async () => {
    const address = email('reserved')
    await subscribe(address, [m.campaignId], { sourceId: m.sourceId })
    expect((await offerOf(m))?.subscribers_left).toBe(9)

    const poor = await createMarket({ deposit: 100, price: 10, budget: 5 })
    const offer = await offerOf(poor)
    expect(offer).toMatchObject({ funding_status: 'budget_exhausted', subscribers_left: 0, earning: '8.00' })
  })

  it('leaves out newsletters that are not active', async () => {
    const paused = await createMarket()
    const db = await testDb()
    await db.query(`update public.campaigns set status = 'paused' where id = $1`, [paused.campaignId])
    expect(await offerOf(m, paused.campaignId)).toBeUndefined()
  })

  it('gives a confirmation rate once five subscriptions have a known outcome', async () => {
    const market = await createMarket({ deposit: 500, price: 10, budget: 500 })
    for (const tag of ['a', 'b', 'c', 'd']) await confirmedThroughSource(market, tag)
    expect((await offerOf(market))?.confirmation_rate).toBeNull()
    // A fifth that expired without being confirmed: 4 of 5.
    const lapsed = email('lapsed')
    await subscribe(lapsed, [market.campaignId], { sourceId: market.sourceId })
    const db = await testDb()
    await db.query(
      `update public.newsletter_subscriptions set token_expires_at = now() - interval '1 minute' where email = $1`,
      [lapsed],
    )
    // One still waiting within its 48 hours does not count either way.
    await subscribe(email('waiting'), [market.campaignId], { sourceId: market.sourceId })
    const offer = await offerOf(market)
    expect(offer).toMatchObject({ confirmation_rate: '80.0', settled_subscriptions: 5 })
  })

  it('is refused to visitors who are not signed in', async () => {
    expect(await errorOf(anon, 'select * from public.publisher_offers()')).toMatch(/permission denied/)
  })
})

describe('publisher_unpaid_readers', () => {
  let unpaid: string
  let refunded: string

  beforeAll(async () => {
    // No click before subscribing: confirmed, but not paid.
    const noClick = await confirmedThroughSource(m, 'noclick', { click: false })
    expect(noClick.result).toMatchObject({ result: 'confirmed', counted: false, not_counted_reason: 'no_click' })
    unpaid = noClick.address
    // Paid, then refunded during screening.
    const paid = await confirmedThroughSource(m, 'refunded')
    expect(paid.result).toMatchObject({ counted: true })
    refunded = paid.address
    await queryAs(
      service,
      `select public.refund_subscription(id, 'Dispute upheld: sign-ups from one office')
       from public.newsletter_subscriptions where email = $1`,
      [refunded],
    )
    // A paid reader, who is not listed.
    await confirmedThroughSource(m, 'paid')
  })

  it("lists the publisher's unpaid and refunded readers with the reason, newest first", async () => {
    const rows = await queryAs<Reader>(m.publisher.actor, 'select * from public.publisher_unpaid_readers()')
    expect(rows.map((r) => [r.reason, r.detail, r.lost_earning])).toEqual([
      ['refunded', 'Dispute upheld: sign-ups from one office', '8.00'],
      ['no_click', null, null],
    ])
    expect(rows[0]).toMatchObject({ source_name: 'Test source', campaign_name: 'Test newsletter', total_count: 2 })
  })

  it('never carries the reader’s email or address', async () => {
    const rows = await queryAs<Reader>(m.publisher.actor, 'select * from public.publisher_unpaid_readers()')
    const text = JSON.stringify(rows)
    expect(text).not.toContain(unpaid)
    expect(text).not.toContain(refunded)
    expect(Object.keys(rows[0]!).sort()).toEqual(
      [
        'subscription_id',
        'confirmed_at',
        'source_id',
        'source_name',
        'campaign_id',
        'campaign_name',
        'reason',
        'detail',
        'lost_earning',
        'total_count',
      ].sort(),
    )
  })

  it('pages, and keeps the total', async () => {
    const page = await queryAs<Reader>(m.publisher.actor, 'select * from public.publisher_unpaid_readers(1, 1)')
    expect(page.map((r) => [r.reason, r.total_count])).toEqual([['no_click', 2]])
  })

  it("shows nobody else's readers: not another publisher's, not the advertiser's, not a visitor's", async () => {
    expect(await queryAs(other.publisher.actor, 'select * from public.publisher_unpaid_readers()')).toEqual([])
    expect(await queryAs(m.advertiser.actor, 'select * from public.publisher_unpaid_readers()')).toEqual([])
    expect(await errorOf(anon, 'select * from public.publisher_unpaid_readers()')).toMatch(/permission denied/)
  })
})
