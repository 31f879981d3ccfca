// A price change applies to new subscriptions only (PRODUCT "Price and budget are promises", issue 23 point 9):
// the advertiser changes it through the API as Manage does; a subscription reserved before keeps the price it
// was made at, through its hold; the next one is reserved at the new price.
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { PRICE_MESSAGES } from '../functions/_shared/rules/price.ts'
import { queryAs, testDb } from './helpers/db'
import { ageSubscription, confirm, createMarket, subscribe, type Market } from './helpers/market'

let m: Market
const email = (tag: string) => `price-${tag}-${randomUUID().slice(0, 8)}@example.com`

async function subscriptionOf(address: string) {
  const db = await testDb()
  const r = await db.query<{ id: string; price: string; reserved_amount: string }>(
    'select id, price::text, reserved_amount::text from public.newsletter_subscriptions where email = $1',
    [address],
  )
  return r.rows[0]!
}

beforeAll(async () => {
  m = await createMarket({ deposit: 200, price: 10, budget: 200 })
})

describe('changing the price', () => {
  it('keeps the locked price of a reserved subscription and reserves new ones at the new price', async () => {
    const before = email('before')
    const { tokens } = await subscribe(before, [m.campaignId], { sourceId: m.sourceId })
    expect(await subscriptionOf(before)).toMatchObject({ price: '10.00', reserved_amount: '10.00' })

    await queryAs(m.advertiser.actor, 'update public.campaigns set price_per_subscriber = 20 where id = $1', [
      m.campaignId,
    ])
    const db = await testDb()
    const price = await db.query<{ p: string }>(
      'select price_per_subscriber::text p from public.campaigns where id = $1',
      [m.campaignId],
    )
    expect(price.rows[0]!.p).toBe('20.00')

    const after = email('after')
    await subscribe(after, [m.campaignId], { sourceId: m.sourceId })
    expect(await subscriptionOf(after)).toMatchObject({ price: '20.00', reserved_amount: '20.00' })

    await ageSubscription(before)
    expect(await confirm(tokens[0]!, before)).toMatchObject({ result: 'confirmed', counted: true })
    const hold = await db.query<{ amount: string }>(
      `select amount::text from public.wallet_transactions where subscription_id = $1 and type = 'hold'`,
      [(await subscriptionOf(before)).id],
    )
    expect(hold.rows.map((r) => r.amount)).toEqual(['-10.00'])
  })

  it('refuses a price outside the range, in the database too, in a sentence', async () => {
    const error = await queryAs(
      m.advertiser.actor,
      'update public.campaigns set price_per_subscriber = 60 where id = $1',
      [m.campaignId],
    ).then(
      () => '',
      (e: Error) => e.message,
    )
    expect(error).toBe(PRICE_MESSAGES.tooHigh)
  })
})
