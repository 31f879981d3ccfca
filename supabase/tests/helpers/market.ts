/**
 * A small marketplace per test: a funded advertiser with an active campaign and a publisher with an
 * approved source, plus the service-role calls the edge functions make (subscribe, confirm).
 */
import { createHash, randomUUID } from 'node:crypto'
import { anon, queryAs, service, testDb } from './db'
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

export const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36'
let visitorSeq = 0
/** A visitor of their own (a fresh address), so per-visitor rules (duplicate visitor, velocity) stay out of the way. */
export const newVisitor = () => ({
  ip: `10.${(++visitorSeq >> 16) & 255}.${(visitorSeq >> 8) & 255}.${visitorSeq & 255}`,
  userAgent: BROWSER_UA,
})
export type Visitor = ReturnType<typeof newVisitor>

/** A magic-link click on the source by the visitor, as the browser records it; resolves to the click id. */
export async function clickSource(sourceId: string, visitor: Visitor = newVisitor()) {
  const rows = await queryAs<{ r: { click_id: string } }>(
    anon,
    'select public.track_audience_source_click($1, $2) as r',
    [sourceId, '{}'],
    { 'x-real-ip': visitor.ip, 'user-agent': visitor.userAgent },
  )
  return rows[0]!.r.click_id
}

/**
 * The subscribe edge function's call. With a source and no click id, the visitor first clicks the source's
 * magic link (the paid-subscriber rule wants a counted click by the same visitor); `click: false` skips it.
 */
export async function subscribe(
  email: string,
  campaignIds: string[],
  {
    sourceId = null as string | null,
    clickId = null as string | null,
    tokens = campaignIds.map(() => randomUUID()),
    visitor = newVisitor(),
    click = true,
    clickToken = null as string | null,
  } = {},
) {
  const usedClick = clickId ?? (sourceId && click ? await clickSource(sourceId, visitor) : null)
  const rows = await queryAs<PendingResult>(
    service,
    'select * from public.create_pending_subscriptions($1, $2::uuid[], $3::text[], $4, $5, $6, $7, $8)',
    [email, campaignIds, tokens.map(tokenHash), sourceId, usedClick, visitor.ip, visitor.userAgent, clickToken],
  )
  return { rows, tokens, clickId: usedClick, visitor }
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
  const r = await db.query<{
    balance: string
    held: string
    available: string
    pending_earnings: string
    reserved: string
  }>(
    'select balance::text, held::text, available::text, pending_earnings::text, reserved::text from public.wallets where user_id = $1',
    [userId],
  )
  return r.rows[0] ?? { balance: '0.00', held: '0.00', available: '0.00', pending_earnings: '0.00', reserved: '0.00' }
}
