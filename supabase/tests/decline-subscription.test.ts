// "Decline this newsletter" (issue 23): the reader of a confirmation email declines a newsletter with the confirm
// link's token. The subscription ends declined and gives its reservation back exactly as an expiry does (one
// function, private.end_pending_subscription); nothing is charged; declining again answers the same; a confirmed
// subscription cannot be declined; only the service role (the edge function) may call it.
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { errorOf, queryAs, service, testDb } from './helpers/db'
import { createUser } from './helpers/fixtures'
import { ageSubscription, confirm, createMarket, subscribe, tokenHash, walletOf, type Market } from './helpers/market'

type Outcome = { result: string; newsletter_name: string | null; campaign_id: string | null }

let m: Market
const email = (tag: string) => `decline-${tag}-${randomUUID().slice(0, 8)}@example.com`

async function decline(token: string, address: string): Promise<Outcome> {
  const rows = await queryAs<{ r: Outcome }>(service, 'select public.decline_subscription($1, $2) as r', [
    tokenHash(token),
    address,
  ])
  return rows[0]!.r
}

async function campaignMoney(campaignId: string) {
  const db = await testDb()
  const { rows } = await db.query<{ budget_reserved: string; reservations_open: number; budget_spent: string }>(
    'select budget_reserved::text, reservations_open, budget_spent::text from public.campaigns where id = $1',
    [campaignId],
  )
  return rows[0]!
}

async function subscriptionOf(address: string) {
  const db = await testDb()
  const { rows } = await db.query<{ status: string; reserved_amount: string; counted: boolean; ledger_rows: number }>(
    `select n.status, n.reserved_amount::text, n.counted,
       (select count(*)::int from public.wallet_transactions t where t.subscription_id = n.id) as ledger_rows
     from public.newsletter_subscriptions n where n.email = $1`,
    [address],
  )
  return rows[0]!
}

/** What a pending subscription's end changes: the campaign's reservations and the advertiser's wallet. */
async function snapshot() {
  return { campaign: await campaignMoney(m.campaignId), wallet: await walletOf(m.advertiser.id) }
}

async function pendingPaid(tag: string) {
  const address = email(tag)
  const { tokens, rows } = await subscribe(address, [m.campaignId], { sourceId: m.sourceId })
  expect(rows[0]!.result).toBe('pending')
  expect((await subscriptionOf(address)).reserved_amount).toBe('10.00')
  return { address, token: tokens[0]! }
}

beforeAll(async () => {
  m = await createMarket({ deposit: 100, price: 10, budget: 100 })
})

describe('decline_subscription', () => {
  it('ends a pending subscription declined and releases its reservation exactly as an expiry does', async () => {
    const before = await snapshot()

    // An expiry, through the scheduled job, from the same starting point.
    const late = await pendingPaid('expired')
    const reserved = await snapshot()
    expect(reserved.campaign.reservations_open).toBe(before.campaign.reservations_open + 1)
    const db = await testDb()
    await db.query(
      `update public.newsletter_subscriptions set token_expires_at = now() - interval '1 minute' where email = $1`,
      [late.address],
    )
    await queryAs(service, 'select public.expire_reservations()')
    const afterExpiry = await snapshot()
    expect(afterExpiry).toEqual(before)
    expect((await subscriptionOf(late.address)).status).toBe('expired')

    // A decline from the same starting point leaves the same campaign and wallet.
    const { address, token } = await pendingPaid('declined')
    expect(await snapshot()).toEqual(reserved)
    expect(await decline(token, address)).toEqual({
      result: 'declined',
      newsletter_name: 'Test newsletter',
      campaign_id: m.campaignId,
    })
    expect(await snapshot()).toEqual(afterExpiry)
    expect(await subscriptionOf(address)).toEqual({
      status: 'declined',
      reserved_amount: '0.00',
      counted: false,
      ledger_rows: 0,
    })
  })

  it('is idempotent: declining again answers declined and changes nothing', async () => {
    const { address, token } = await pendingPaid('twice')
    expect((await decline(token, address)).result).toBe('declined')
    const after = await snapshot()
    expect((await decline(token, address)).result).toBe('declined')
    expect(await snapshot()).toEqual(after)
    expect((await subscriptionOf(address)).status).toBe('declined')
  })

  it('leaves a declined subscription unconfirmable with its old link', async () => {
    const { address, token } = await pendingPaid('then-confirm')
    await decline(token, address)
    await ageSubscription(address)
    expect((await confirm(token, address)).result).toBe('invalid')
    expect(await subscriptionOf(address)).toMatchObject({ status: 'declined', counted: false, ledger_rows: 0 })
  })

  it('cannot decline a confirmed subscription: already_confirmed, and the charge stays', async () => {
    const { address, token } = await pendingPaid('confirmed')
    await ageSubscription(address)
    expect((await confirm(token, address)).result).toBe('confirmed')
    const charged = await snapshot()
    expect(await decline(token, address)).toEqual({
      result: 'already_confirmed',
      newsletter_name: 'Test newsletter',
      campaign_id: m.campaignId,
    })
    expect(await snapshot()).toEqual(charged)
    expect(await subscriptionOf(address)).toMatchObject({ status: 'confirmed', counted: true, ledger_rows: 2 })
  })

  it('declines a link past its 48 hours too (not subscribed either way)', async () => {
    const before = await snapshot()
    const { address, token } = await pendingPaid('late-decline')
    const db = await testDb()
    await db.query(
      `update public.newsletter_subscriptions set token_expires_at = now() - interval '1 minute' where email = $1`,
      [address],
    )
    expect((await decline(token, address)).result).toBe('declined')
    expect(await snapshot()).toEqual(before)
    expect((await subscriptionOf(address)).status).toBe('declined')
  })

  it('answers invalid for another address, an unknown token or no token, and changes nothing', async () => {
    const { address, token } = await pendingPaid('invalid')
    const held = await snapshot()
    expect((await decline(token, 'someone-else@example.com')).result).toBe('invalid')
    expect((await decline(randomUUID(), address)).result).toBe('invalid')
    const rows = await queryAs<{ r: Outcome }>(service, 'select public.decline_subscription(null, $1) as r', [address])
    expect(rows[0]!.r.result).toBe('invalid')
    expect(await snapshot()).toEqual(held)
    expect((await subscriptionOf(address)).status).toBe('pending')
  })

  it('lets a declined address subscribe again later, with a new reservation', async () => {
    const { address, token } = await pendingPaid('again')
    await decline(token, address)
    const { rows } = await subscribe(address, [m.campaignId], { sourceId: m.sourceId })
    expect(rows[0]!.result).toBe('pending')
    expect(await subscriptionOf(address)).toMatchObject({ status: 'pending', reserved_amount: '10.00' })
  })

  it('is the edge function’s alone: anon and signed-in users cannot call it', async () => {
    const someone = await createUser('advertiser')
    const sql = "select public.decline_subscription('x', 'a@example.com')"
    expect(await errorOf({ role: 'anon' }, sql)).toMatch(/permission denied/)
    expect(await errorOf(someone.actor, sql)).toMatch(/permission denied/)
  })
})
