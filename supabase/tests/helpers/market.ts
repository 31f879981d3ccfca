/**
 * A small marketplace per test: a funded advertiser with an active campaign and a publisher with an
 * approved source, plus the service-role calls the edge functions make (subscribe, confirm).
 */
import { createHash, randomUUID } from 'node:crypto'
import { queryAs, service, testDb } from './db'
import { createUser, type NewUser } from './fixtures'

export type Market = { advertiser: NewUser; publisher: NewUser; campaignId: string; sourceId: string; code: string }

export async function createMarket({ deposit = 100, price = 10, budget = 100 } = {}): Promise<Market> {
  const db = await testDb()
  const advertiser = await createUser('advertiser')
  const publisher = await createUser('publisher')
  if (deposit > 0)
    await db.query('select public.credit_deposit($1, $2, $3)', [advertiser.id, deposit, `test-${randomUUID()}`])
  const code = `src-${randomUUID().slice(0, 8)}`
  const source = await db.query<{ id: string }>(
    `insert into public.audience_sources (publisher_id, name, platform, status, unified_code)
     values ($1, 'Test source', 'x', 'approved', $2) returning id`,
    [publisher.id, code],
  )
  const campaign = await db.query<{ id: string }>(
    `insert into public.campaigns (advertiser_id, name, price_per_subscriber, budget_total, status)
     values ($1, 'Test newsletter', $2, $3, 'active') returning id`,
    [advertiser.id, price, budget],
  )
  return { advertiser, publisher, campaignId: campaign.rows[0]!.id, sourceId: source.rows[0]!.id, code }
}

export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex')

export type PendingResult = { campaign_id: string; campaign_name: string; result: string }

export async function subscribe(
  email: string,
  campaignIds: string[],
  {
    sourceId = null as string | null,
    clickId = null as string | null,
    tokens = campaignIds.map(() => randomUUID()),
  } = {},
) {
  const rows = await queryAs<PendingResult>(
    service,
    'select * from public.create_pending_subscriptions($1, $2::uuid[], $3::text[], $4, $5)',
    [email, campaignIds, tokens.map(tokenHash), sourceId, clickId],
  )
  return { rows, tokens }
}

/** Pretends the confirmation email was opened a minute later (the 2-second rule is tested separately). */
export async function ageSubscription(email: string) {
  const db = await testDb()
  await db.query(`update public.newsletter_subscriptions set armed_at = now() - interval '1 minute' where email = $1`, [
    email,
  ])
}

export type Confirmation = {
  result: string
  newsletter_name: string | null
  campaign_id: string | null
  counted: boolean
  not_counted_reason: string | null
}

export async function confirm(token: string, email: string): Promise<Confirmation> {
  const rows = await queryAs<{ r: Confirmation }>(service, 'select public.confirm_subscription($1, $2) as r', [
    tokenHash(token),
    email,
  ])
  return rows[0]!.r
}

export async function walletOf(userId: string) {
  const db = await testDb()
  const r = await db.query<{ balance: string; held: string; available: string; pending_earnings: string }>(
    'select balance::text, held::text, available::text, pending_earnings::text from public.wallets where user_id = $1',
    [userId],
  )
  return r.rows[0] ?? { balance: '0.00', held: '0.00', available: '0.00', pending_earnings: '0.00' }
}
